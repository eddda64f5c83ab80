package dev.brisk.nn;

import dev.brisk.backend.Kernels;
import dev.brisk.exec.Plan;

/**
 * Test-side access to the package-private parts of {@link Model} for tests in other packages: the compiled plan
 * belongs to the internal execution engine and the kernels override is for tests, so neither is public API.
 */
public final class ModelInternals {
    private ModelInternals() {
    }

    /** The model's compiled train-step plan for {@code batchSize}, or null before a compiled step has run. */
    public static Plan trainPlan(Model model, int batchSize) {
        return model.trainPlan(batchSize);
    }

    /** Makes {@code model} use {@code kernels} instead of the default backend, and returns it. */
    public static Model kernels(Model model, Kernels kernels) {
        return model.kernels(kernels);
    }
}

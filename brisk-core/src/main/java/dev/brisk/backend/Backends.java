package dev.brisk.backend;

import dev.brisk.backend.jvm.ScalarKernels;
import dev.brisk.config.Setting;
import dev.brisk.config.Settings;

/**
 * Chooses the process-wide kernels: the Vector API backend when the JVM has the {@code jdk.incubator.vector}
 * module, otherwise the scalar reference (with one line on stderr saying how to enable the fast one). The system
 * property {@code brisk.kernels} ({@code scalar} or {@code vector}) forces the choice.
 */
public final class Backends {
    /** System property that forces a backend: {@code scalar} or {@code vector}. */
    public static final String PROPERTY = Setting.KERNELS.property();
    static final String FALLBACK_MESSAGE = "brisk: Vector API not available (start the JVM with --add-modules "
            + "jdk.incubator.vector); using scalar kernels";
    private static final String VECTOR_CLASS = "dev.brisk.backend.jvm.VectorKernels";

    private Backends() {
    }

    /**
     * The default kernels of this process, chosen on first use.
     *
     * @return the kernels {@code brisk.kernels} names, else the vector kernels where the Vector API module is
     *     present, else the scalar ones
     */
    public static Kernels get() {
        return Default.KERNELS;
    }

    /**
     * The scalar reference kernels.
     *
     * @return the scalar kernels
     */
    public static Kernels scalar() {
        return Scalar.KERNELS;
    }

    /** Holder idiom: the choice (and the fallback line) happens once, on the first call to {@link #get()}. */
    private static final class Default {
        static final Kernels KERNELS = choose();
    }

    private static final class Scalar {
        static final Kernels KERNELS = new ScalarKernels();
    }

    private static Kernels choose() {
        String forced = Settings.kernels();
        if (forced != null) {
            switch (forced) {
                case "scalar":
                    return scalar();
                case "vector":
                    if (!vectorModulePresent()) {
                        throw new IllegalStateException("-D" + PROPERTY + "=vector needs the Vector API: start the "
                                + "JVM with --add-modules jdk.incubator.vector");
                    }
                    try {
                        return newVectorKernels();
                    } catch (ReflectiveOperationException | LinkageError e) {
                        throw new IllegalStateException("the vector kernels failed to load", e);
                    }
                default:
                    throw new IllegalStateException("unknown kernels '" + forced + "'");
            }
        }
        if (!vectorModulePresent()) {
            System.err.println(FALLBACK_MESSAGE);
            return scalar();
        }
        try {
            return newVectorKernels();
        } catch (ReflectiveOperationException | LinkageError e) {
            System.err.println("brisk: the vector kernels failed to load (" + e + "); using scalar kernels");
            return scalar();
        }
    }

    private static boolean vectorModulePresent() {
        return ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
    }

    /** Loaded reflectively so that this class, and with it the scalar path, never links the Vector API. */
    private static Kernels newVectorKernels() throws ReflectiveOperationException {
        return (Kernels) Class.forName(VECTOR_CLASS).getDeclaredConstructor().newInstance();
    }
}

package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.brisk.backend.Backends;
import dev.brisk.backend.Kernels;
import dev.brisk.callbacks.Callback;
import dev.brisk.losses.Losses;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.tensor.Tensor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A model's first training step leaves one thread of the budget to the JIT compiler; later steps use them all. */
class FirstStepThreadsTest {
    @AfterEach
    void resetBudget() {
        ThreadBudget.reset();
    }

    @Test
    void firstTrainingStepRunsOneComputeThreadShort() {
        for (boolean eager : new boolean[] {false, true}) {
            ThreadBudget.set(2);
            List<Set<Integer>> threadsByStep = new ArrayList<>();
            Tensor[] xy = EagerVsCompiledTest.data(90, 8, 8, 1);
            RandomSeed.set(3);
            Model m = EagerVsCompiledTest.cnn();
            m.kernels(recording(Backends.get(), threadsByStep));
            m.runEagerly(eager);
            m.compile(Optimizers.adam(1e-3f), Losses.sparseCategoricalCrossentropy(true));
            Callback steps = new Callback() {
                @Override
                public void onTrainBatchBegin(int batch, Map<String, Double> logs) {
                    threadsByStep.add(new TreeSet<>());
                }
            };
            m.fit(xy[0], xy[1], Fit.epochs(1).batchSize(30).seed(1).verbose(0).callbacks(steps));
            String mode = eager ? "eager" : "compiled";
            assertEquals(3, threadsByStep.size(), mode);
            assertFalse(threadsByStep.get(0).isEmpty(), mode + ": the first step called kernels");
            assertEquals(Set.of(1), threadsByStep.get(0), mode + ": compute threads in the first step");
            assertEquals(Set.of(2), threadsByStep.get(1), mode + ": compute threads in the second step");
            assertEquals(Set.of(2), threadsByStep.get(2), mode + ": compute threads in the third step");
            assertEquals(2, ThreadBudget.threads());
            assertEquals(0, ThreadBudget.reserved(), mode + ": the first step gave its thread back");
        }
    }

    /** {@code kernels}, noting the compute threads at every call into the current step's set. */
    private static Kernels recording(Kernels kernels, List<Set<Integer>> threadsByStep) {
        return (Kernels) Proxy.newProxyInstance(Kernels.class.getClassLoader(), new Class<?>[] {Kernels.class},
                (proxy, method, args) -> {
                    if (!threadsByStep.isEmpty() && method.getDeclaringClass() == Kernels.class
                            && !method.getName().equals("name")) {
                        threadsByStep.get(threadsByStep.size() - 1).add(ThreadBudget.computeThreads());
                    }
                    try {
                        return method.invoke(kernels, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}

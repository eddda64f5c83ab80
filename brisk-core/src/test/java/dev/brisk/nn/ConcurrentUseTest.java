package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.Callback;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The thread-safety contract of {@link Model} (docs/thread-safety.md): any number of threads may call predict and
 * evaluate on one model at once and get exactly what one thread gets; fit refuses calls from other threads while it
 * runs, and the training thread itself (its callbacks) may still predict.
 */
class ConcurrentUseTest {
    private static final int THREADS = 8;

    private static Model trained(Tensor[] xy) {
        Model m = EagerVsCompiledTest.cnn();
        m.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        m.fit(xy[0], xy[1], Fit.epochs(1).batchSize(16).seed(1).verbose(0));
        return m;
    }

    private static void assertBitwiseEqual(Tensor expected, Tensor actual, String what) {
        assertEquals(expected.shape(), actual.shape(), what);
        for (int i = 0; i < expected.size(); i++) {
            if (Float.floatToRawIntBits(expected.get(i)) != Float.floatToRawIntBits(actual.get(i))) {
                throw new AssertionError(what + ": element " + i + " is " + actual.get(i) + ", single-threaded "
                        + expected.get(i));
            }
        }
    }

    @Test
    void predictAndEvaluateFromEightThreadsWhileAnotherModelTrainsGiveSingleThreadedResults() throws Exception {
        Tensor[] xy = EagerVsCompiledTest.data(90, 8, 8, 1);
        Model model = trained(xy);
        int[] batchSizes = {16, 7, 32};
        Tensor[] expected = new Tensor[batchSizes.length];
        List<Map<String, Double>> expectedEval = new ArrayList<>();
        for (int b = 0; b < batchSizes.length; b++) {
            expected[b] = model.predict(xy[0], batchSizes[b]).copy();
            expectedEval.add(model.evaluate(xy[0], xy[1], batchSizes[b]));
        }

        Tensor[] otherData = EagerVsCompiledTest.data(64, 8, 8, 1);
        Model other = trained(otherData);
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1);
        try {
            Future<?> training = pool.submit(() -> {
                while (!stop.get()) {
                    other.fit(otherData[0], otherData[1], Fit.epochs(1).batchSize(8).verbose(0));
                }
                return null;
            });
            List<Future<?>> callers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                callers.add(pool.submit(() -> {
                    for (int round = 0; round < 12; round++) {
                        int b = (thread + round) % batchSizes.length;
                        if (round % 4 == 3) {
                            assertEquals(expectedEval.get(b), model.evaluate(xy[0], xy[1], batchSizes[b]),
                                    "evaluate on thread " + thread + ", round " + round);
                        } else {
                            assertBitwiseEqual(expected[b], model.predict(xy[0], batchSizes[b]),
                                    "predict on thread " + thread + ", round " + round + ", batch " + batchSizes[b]);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : callers) {
                f.get(5, TimeUnit.MINUTES);
            }
            stop.set(true);
            training.get(5, TimeUnit.MINUTES);
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }
    }

    @Test
    void callsFromOtherThreadsAreRefusedWhileFitRunsButItsOwnCallbacksMayPredict() throws Exception {
        Tensor[] xy = EagerVsCompiledTest.data(48, 8, 8, 1);
        Model model = trained(xy);
        Model served = model; // a Callback's own field is called model
        CountDownLatch inFit = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Tensor> predictedInCallback = new AtomicReference<>();
        Callback holdFirstEpoch = new Callback() {
            @Override
            public void onEpochEnd(int epoch, Map<String, Double> logs) {
                predictedInCallback.set(served.predict(xy[0], 16));
                inFit.countDown();
                try {
                    release.await(1, TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<?> fit = pool.submit(() -> model.fit(xy[0], xy[1],
                    Fit.epochs(1).batchSize(16).verbose(0).callbacks(holdFirstEpoch)));
            assertTrue(inFit.await(1, TimeUnit.MINUTES));
            IllegalStateException predict = assertThrows(IllegalStateException.class, () -> model.predict(xy[0], 16));
            assertTrue(predict.getMessage().contains("fit") && predict.getMessage().contains(model.name()),
                    predict.getMessage());
            assertThrows(IllegalStateException.class, () -> model.evaluate(xy[0], xy[1], 16));
            IllegalStateException secondFit = assertThrows(IllegalStateException.class,
                    () -> model.fit(xy[0], xy[1], Fit.epochs(1).verbose(0)));
            assertTrue(secondFit.getMessage().contains("fit"), secondFit.getMessage());
            assertThrows(IllegalStateException.class, () -> model.setWeights(model.getWeights()));
            release.countDown();
            fit.get(1, TimeUnit.MINUTES);
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
        assertEquals(48, predictedInCallback.get().shape().dim(0));
        // Once fit has returned, every thread may use the model again.
        assertEquals(48, model.predict(xy[0], 16).shape().dim(0));
    }

    @Test
    void aBatchSizeBelowOneIsRefusedAtOnce() {
        Tensor[] xy = EagerVsCompiledTest.data(20, 8, 8, 1);
        Model model = trained(xy);
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            for (int bad : new int[] {0, -1}) {
                IllegalArgumentException p = assertThrows(IllegalArgumentException.class,
                        () -> model.predict(xy[0], bad));
                assertTrue(p.getMessage().contains("batchSize") && p.getMessage().contains(String.valueOf(bad)),
                        p.getMessage());
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> model.evaluate(xy[0], xy[1], bad));
                assertTrue(e.getMessage().contains("batchSize"), e.getMessage());
                assertThrows(IllegalArgumentException.class, () -> Fit.epochs(1).batchSize(bad));
            }
        });
    }
}

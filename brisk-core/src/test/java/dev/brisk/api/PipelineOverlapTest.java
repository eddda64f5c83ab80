package dev.brisk.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brisk.callbacks.History;
import dev.brisk.data.Batch;
import dev.brisk.data.Pipeline;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Layer;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Prefetch and a parallel map overlap input with training: with a map that costs about as much as a train step,
 * an epoch takes about max(compute, input) instead of their sum. The times are measured in one run and printed;
 * nothing is asserted on them (the machine is shared). What is asserted is that both runs trained on the same data.
 *
 * <p>The model's kernels are too small to be split over threads (60 x 32 x 32 is under the parallel gemm's
 * threshold), so a train step is one core's work whatever AUTOTUNE reserves, and the ideal on a two-thread budget
 * is plain max(compute, input). On a machine busy with other work the pipeline gets less than its core and the
 * figures say so.
 */
class PipelineOverlapTest {
    private static final int BATCH = 60;
    private static final int STEPS = 500;

    @AfterEach
    void resetBudget() {
        ThreadBudget.reset();
    }

    private static Sequential model() {
        RandomSeed.set(3);
        List<Layer> layers = new ArrayList<>();
        layers.add(Layers.input(32));
        for (int i = 0; i < 64; i++) {
            layers.add(Layers.dense(32, Activation.RELU));
        }
        layers.add(Layers.dense(10));
        Sequential m = Sequential.of(layers.toArray(new Layer[0]));
        m.compile(Optimizers.adam(1e-3f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        return m;
    }

    /** Burns about {@code nanos} of one core, like decoding and augmenting a batch would. */
    private static Batch work(Batch b, long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
        return b;
    }

    private static double seconds(Runnable r) {
        long start = System.nanoTime();
        r.run();
        return (System.nanoTime() - start) / 1e9;
    }

    @Test
    void prefetchAndParallelMapOverlapInputWithCompute() {
        ThreadBudget.set(2);
        Tensor[] xy = TestData.classification(BATCH * STEPS, 32, 7);
        Pipeline<Batch> batches = Pipeline.fromArrays(xy[0], xy[1]).batch(BATCH).cache();
        Fit once = Fit.epochs(1).verbose(0);
        model().fit(batches, Fit.epochs(3).verbose(0)); // warm-up: JIT and the cache
        Sequential plain = model();
        double compute = seconds(() -> plain.fit(batches, once));
        long perBatch = (long) (compute / STEPS * 1e9);

        Pipeline<Batch> sequential = batches.map(b -> work(b, perBatch));
        Pipeline<Batch> overlapped = batches.map(b -> work(b, perBatch), Pipeline.AUTOTUNE)
                .prefetch(Pipeline.AUTOTUNE);
        double input = seconds(() -> sequential.forEach(b -> { }));
        model().fit(overlapped, once); // a first epoch lets AUTOTUNE settle; its settings stay with the pipeline

        History seqHistory = new History();
        Sequential seqModel = model();
        double seqTime = seconds(() -> seqModel.fit(sequential, Fit.epochs(1).verbose(0).callbacks(seqHistory)));
        History overHistory = new History();
        Sequential overModel = model();
        double over = seconds(() -> overModel.fit(overlapped, Fit.epochs(1).verbose(0).callbacks(overHistory)));

        System.out.printf(Locale.ROOT, "pipeline overlap (%d steps, budget 2): compute %.3fs, input %.3fs;"
                        + " sequential %.3fs = %.2f x (compute + input); prefetch + parallel map %.3fs ="
                        + " %.2f x max(compute, input), %.2f x faster than sequential%n",
                STEPS, compute, input, seqTime, seqTime / (compute + input), over,
                over / Math.max(compute, input), seqTime / over);
        for (String metric : List.of("loss", "accuracy")) {
            assertEquals(seqHistory.get(metric), overHistory.get(metric), metric + ": both runs saw the same batches");
        }
    }
}

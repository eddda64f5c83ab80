package dev.brisk.cli;

import dev.brisk.data.InMemoryDataset;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Model;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The reference training workloads of {@code docs/workloads.md}, defined once so that {@code train} and
 * future {@code bench} commands measure the same thing.
 *
 * <p>All workloads: Fashion-MNIST, float32, batch size {@value #BATCH_SIZE}, Adam (lr 1e-3, beta1 0.9, beta2 0.999,
 * eps 1e-7), sparse categorical cross-entropy on logits, accuracy, shuffled each epoch, default initialisation.
 */
public final class Workloads {
    /** The batch size of every reference run. */
    public static final int BATCH_SIZE = 128;

    private Workloads() {
    }

    /** A reference workload: its model, how its data is shaped, and how long it trains by default. */
    public enum Workload {
        /** MLP: 784 -> Dense(512, relu) -> Dense(512, relu) -> Dense(10), on flattened images. */
        W1(5, "MLP 784-512-512-10", 784 * 512 + 512 * 512 + 512 * 10) {
            @Override
            public Sequential model() {
                return Sequential.of(
                        Layers.input(28 * 28),
                        Layers.dense(512, Activation.RELU),
                        Layers.dense(512, Activation.RELU),
                        Layers.dense(10));
            }

            @Override
            public InMemoryDataset prepare(InMemoryDataset data) {
                return data.flatten();
            }
        },
        /** CNN: Conv2D(32,3,relu) MaxPool(2) Conv2D(64,3,relu) MaxPool(2) Flatten Dense(128,relu) Dense(10). */
        W2(3, "CNN conv32-pool-conv64-pool-128-10",
                26 * 26 * 32 * 9 + 11 * 11 * 64 * 3 * 3 * 32 + 1600 * 128 + 128 * 10) {
            @Override
            public Sequential model() {
                return Sequential.of(
                        Layers.input(28, 28, 1),
                        Layers.conv2d(32, 3, Activation.RELU),
                        Layers.maxPooling2d(2),
                        Layers.conv2d(64, 3, Activation.RELU),
                        Layers.maxPooling2d(2),
                        Layers.flatten(),
                        Layers.dense(128, Activation.RELU),
                        Layers.dense(10));
            }

            @Override
            public InMemoryDataset prepare(InMemoryDataset data) {
                return data;
            }
        };

        private final int defaultEpochs;
        private final String description;
        private final long forwardMacsPerSample;

        Workload(int defaultEpochs, String description, long forwardMacsPerSample) {
            this.defaultEpochs = defaultEpochs;
            this.description = description;
            this.forwardMacsPerSample = forwardMacsPerSample;
        }

        /**
         * Useful training FLOPs per sample as docs/workloads.md counts them: the forward pass's multiply-adds (dense
         * and convolution layers) times 2, times 3 for forward + both backward products (W1 4.01 MFLOP, W2 15.79).
         */
        public double trainingFlopsPerSample() {
            return 3.0 * 2.0 * forwardMacsPerSample;
        }

        /** The name used on the command line and in RESULT lines ("w1", "w2"). */
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** Epochs of a reference run (5 for W1, 3 for W2): the run whose test accuracy is reported. */
        public int defaultEpochs() {
            return defaultEpochs;
        }

        public String description() {
            return description;
        }

        /** A fresh, uncompiled model (weights from {@link dev.brisk.nn.RandomSeed}). */
        public abstract Sequential model();

        /** Fashion-MNIST samples ({@code [N, 28, 28, 1]}) in the shape this workload's model takes. */
        public abstract InMemoryDataset prepare(InMemoryDataset data);

        /** A fresh model, compiled as every reference run is. */
        public Sequential compiledModel() {
            Sequential m = model();
            compile(m);
            return m;
        }

        /** The workload with this id, ignoring case. */
        public static Workload parse(String id) {
            for (Workload w : values()) {
                if (w.id().equalsIgnoreCase(id.trim())) {
                    return w;
                }
            }
            throw new IllegalArgumentException("unknown workload '" + id + "'; valid workloads: " + validIds());
        }

        /** "w1, w2". */
        public static String validIds() {
            return Arrays.stream(values()).map(Workload::id).collect(Collectors.joining(", "));
        }
    }

    /** Adam 1e-3, sparse categorical cross-entropy from logits, accuracy. */
    public static void compile(Model model) {
        model.compile(Optimizers.adam(1e-3f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
    }
}

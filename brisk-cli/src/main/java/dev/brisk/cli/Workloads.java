package dev.brisk.cli;

import dev.brisk.data.InMemoryDataset;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Model;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The reference training workloads of {@code docs/workloads.md}, defined once so that {@code train} and
 * {@code bench} measure the same thing: W1 and W2, the workloads Brisk's speed is tracked on, the model zoo
 * Z1-Z4, architectures people train that Brisk was not tuned for, W3, a recurrent network over image rows, and W4,
 * character-level language models of English text (a transformer and a GRU).
 *
 * <p>All workloads: Fashion-MNIST, float32, batch size {@value #BATCH_SIZE}, Adam (lr 1e-3, beta1 0.9, beta2 0.999,
 * eps 1e-7), shuffled each epoch, default initialisation. The classifiers train on sparse categorical cross-entropy
 * on logits and report accuracy; the autoencoder trains on binary cross-entropy against its own input and reports
 * its test loss ({@link Workload#testMetric()}).
 */
public final class Workloads {
    /** The batch size of every reference run. */
    public static final int BATCH_SIZE = 128;

    private Workloads() {
    }

    /**
     * A reference workload: its model, how it is compiled, how its data is shaped, what it reports and how long it
     * trains by default. Forward multiply-adds per sample count dense and convolution layers only (for a convolution:
     * output height x width x output channels x kernel height x width x input channels); the arithmetic of the zoo's
     * is written out in docs/workloads.md.
     */
    public enum Workload {
        /** MLP: 784 -> Dense(512, relu) -> Dense(512, relu) -> Dense(10), on flattened images. */
        W1(5, "MLP 784-512-512-10", 784 * 512 + 512 * 512 + 512 * 10) {
            @Override
            public Model model() {
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
            public Model model() {
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
        },
        /**
         * ResNet-style: 3x3 stem (16) with BN and relu, three stages of two residual blocks (16, 32, 64 channels,
         * stride 2 and a 1x1 projection at the start of stages 2 and 3), global average pooling, Dense(10).
         */
        Z1(2, "ResNet-style stem16 + 3 stages x 2 residual blocks (16-32-64) + GAP + 10",
                // stem 28x28 1->16; stage 1: four convs 28x28 16->16
                28 * 28 * 16 * 9 * 1 + 4 * (28 * 28 * 16 * 9 * 16)
                        // stage 2: stride-2 conv 14x14 16->32, 1x1 projection, three convs 14x14 32->32
                        + 14 * 14 * 32 * 9 * 16 + 14 * 14 * 32 * 16 + 3 * (14 * 14 * 32 * 9 * 32)
                        // stage 3: stride-2 conv 7x7 32->64, 1x1 projection, three convs 7x7 64->64
                        + 7 * 7 * 64 * 9 * 32 + 7 * 7 * 64 * 32 + 3 * (7 * 7 * 64 * 9 * 64)
                        + 64 * 10) {
            @Override
            public Model model() {
                return ZooModels.resNet();
            }

            @Override
            public InMemoryDataset prepare(InMemoryDataset data) {
                return data;
            }
        },
        /** VGG-style: (Conv 32 + BN + relu) x2, MaxPool, (Conv 64 + BN + relu) x2, MaxPool, Dense(256), Dropout. */
        Z2(2, "VGG-style (conv32-bn-relu)x2-pool-(conv64-bn-relu)x2-pool-256-dropout-10",
                28 * 28 * 32 * 9 * 1 + 28 * 28 * 32 * 9 * 32 + 14 * 14 * 64 * 9 * 32 + 14 * 14 * 64 * 9 * 64
                        + 7 * 7 * 64 * 256 + 256 * 10) {
            @Override
            public Model model() {
                return ZooModels.vgg();
            }

            @Override
            public InMemoryDataset prepare(InMemoryDataset data) {
                return data;
            }
        },
        /** Autoencoder 784-256-64-256-784, sigmoid output, binary cross-entropy against its own input. */
        Z3(5, "autoencoder 784-256-64-256-784 (sigmoid, binary cross-entropy reconstruction)",
                784 * 256 + 256 * 64 + 64 * 256 + 256 * 784) {
            @Override
            public Model model() {
                return ZooModels.autoencoder();
            }

            /** The flattened images, each its own target. */
            @Override
            public InMemoryDataset prepare(InMemoryDataset data) {
                InMemoryDataset flat = data.flatten();
                Tensor pixels = flat.features();
                return new InMemoryDataset(pixels, pixels);
            }

            @Override
            public void compile(Model model) {
                model.compile(Optimizers.adam(LEARNING_RATE), Losses.binaryCrossentropy());
            }

            @Override
            public TestMetric testMetric() {
                return TestMetric.LOSS;
            }

            /** The pipeline scales the features only, and this workload's targets are its features. */
            @Override
            public boolean trainsThroughPipeline() {
                return false;
            }
        },
        /** Wide MLP: 784 -> 4 x [Dense(1024) + BN + relu + Dropout(0.2)] -> Dense(10), on flattened images. */
        Z4(5, "wide MLP 784-4x(1024-bn-relu-dropout0.2)-10",
                784 * 1024 + 3 * (1024 * 1024) + 1024 * 10) {
            @Override
            public Model model() {
                return ZooModels.wideMlp();
            }

            @Override
            public InMemoryDataset prepare(InMemoryDataset data) {
                return data.flatten();
            }
        },
        /**
         * Recurrent: each image read as a sequence of 28 rows of 28 pixels; LSTM(128) (its last state) -> Dense(10).
         * Multiply-adds per sample: 28 steps x (28 + 128) x 512 gate columns, plus 128 x 10.
         */
        W3(3, "LSTM(128) over 28 rows of 28 pixels -> 10", 28L * (28 + 128) * 4 * 128 + 128 * 10) {
            @Override
            public Model model() {
                return Sequential.of(
                        Layers.input(28, 28),
                        Layers.lstm(128),
                        Layers.dense(10));
            }

            /** The images as sequences: {@code [N, 28 rows, 28 pixels]}. */
            @Override
            public InMemoryDataset prepare(InMemoryDataset data) {
                return data.reshapeFeatures(Shape.of(28, 28));
            }
        },
        /**
         * Character-level language model on the fortunes text: token and positional embeddings, two pre-norm
         * transformer blocks (causal attention 4 x 32, feed-forward 512 with gelu), Dense(vocabulary); windows of
         * {@value #WINDOW} characters. Multiply-adds per window: {@link LanguageModels#transformerMacs}.
         */
        W4(TEXT_EPOCHS, "transformer LM: embedding+positions, 2 x (causal MHA 4x32, FF 512 gelu), next character",
                LanguageModels.transformerMacs(REFERENCE_VOCABULARY, WINDOW)) {
            @Override
            public Model languageModel(int vocabulary) {
                return LanguageModels.transformer(vocabulary, WINDOW);
            }
        },
        /** W4's GRU variant: embedding, GRU(256) over the window, Dense(vocabulary) at every step. */
        W4_GRU(TEXT_EPOCHS, "GRU LM: embedding, GRU(256) at every step, next character",
                LanguageModels.gruMacs(REFERENCE_VOCABULARY, WINDOW)) {
            @Override
            public Model languageModel(int vocabulary) {
                return LanguageModels.gru(vocabulary, WINDOW);
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
         * and convolution layers) times 2, times 3 for forward + both backward products.
         */
        public double trainingFlopsPerSample() {
            return 3.0 * 2.0 * forwardMacsPerSample;
        }

        /** Multiply-adds of one sample's forward pass in the dense and convolution layers. */
        public long forwardMacsPerSample() {
            return forwardMacsPerSample;
        }

        /** The name used on the command line and in RESULT lines ("w1", "z3", "w4-gru"). */
        public String id() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /** Epochs of a reference run: the run whose test figure is reported. */
        public int defaultEpochs() {
            return defaultEpochs;
        }

        /** What the model is, in a line. */
        public String description() {
            return description;
        }

        /**
         * A fresh, uncompiled model (weights from {@link dev.brisk.nn.RandomSeed}); for a language model, the one over
         * the reference vocabulary of the fortunes text.
         */
        public Model model() {
            return languageModel(REFERENCE_VOCABULARY);
        }

        /**
         * Fashion-MNIST samples ({@code [N, 28, 28, 1]}) in the shape this workload's model takes.
         *
         * @throws UnsupportedOperationException for a language model, which trains on text
         */
        public InMemoryDataset prepare(InMemoryDataset data) {
            throw new UnsupportedOperationException("workload " + id() + " trains on text, not on Fashion-MNIST");
        }

        /**
         * Whether this workload is a character-level language model on the fortunes text (W4), rather than a model
         * of Fashion-MNIST.
         */
        public boolean text() {
            return this == W4 || this == W4_GRU;
        }

        /**
         * A fresh language model over {@code vocabulary} character ids.
         *
         * @throws UnsupportedOperationException for a workload that is not a language model
         */
        public Model languageModel(int vocabulary) {
            throw new UnsupportedOperationException("workload " + id() + " is not a language model");
        }

        /** Samples per batch of a reference run: {@value #TEXT_BATCH_SIZE} windows for W4, else 128 images. */
        public int batchSize() {
            return text() ? TEXT_BATCH_SIZE : BATCH_SIZE;
        }

        /**
         * Compiles {@code model} as every run of this workload is: Adam 1e-3, sparse categorical cross-entropy from
         * logits, accuracy (the classifiers); the autoencoder overrides it.
         */
        public void compile(Model model) {
            if (text()) {
                // The next-character cross-entropy alone: its mean over the held-out windows gives bits per char.
                model.compile(Optimizers.adam(LEARNING_RATE), Losses.sparseCategoricalCrossentropy(true));
                return;
            }
            model.compile(Optimizers.adam(LEARNING_RATE), Losses.sparseCategoricalCrossentropy(true),
                    Metrics.accuracy());
        }

        /**
         * What a run reports on the test set: accuracy, or the loss for a model without one (the autoencoder, and
         * the language models, whose held-out loss in nats is also reported as bits per character).
         */
        public TestMetric testMetric() {
            return text() ? TestMetric.LOSS : TestMetric.ACCURACY;
        }

        /**
         * Whether {@code train --pipeline} can feed this workload: the pipeline scales the raw pixels of the
         * features, so a workload whose targets are pixels too would train on unscaled targets.
         */
        public boolean trainsThroughPipeline() {
            return !text();
        }

        /** A fresh model, compiled as every reference run is. */
        public Model compiledModel() {
            Model m = model();
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

        /** "w1, w2, z1, z2, z3, z4, w3, w4, w4-gru". */
        public static String validIds() {
            return Arrays.stream(values()).map(Workload::id).collect(Collectors.joining(", "));
        }

        /** The workloads Brisk's speed is tracked on, which {@code bench} runs by default: W1 and W2. */
        public static List<Workload> reference() {
            return List.of(W1, W2);
        }
    }

    /** Adam's learning rate in every workload. */
    static final float LEARNING_RATE = 1e-3f;

    /** Characters per window of the language models (W4). */
    public static final int WINDOW = 128;
    /** Windows per batch of the language models (W4). */
    public static final int TEXT_BATCH_SIZE = 64;
    /**
     * Characters between the starts of consecutive training windows of W4: windows overlap by half, so every
     * character is predicted from two amounts of context in an epoch (the held-out windows do not overlap).
     */
    public static final int TRAIN_STRIDE = 64;
    /** Epochs of a reference run of W4. */
    static final int TEXT_EPOCHS = 4;
    /**
     * Ids of W4's vocabulary: padding, OOV and the 112 characters of the training part of the fortunes text (of
     * Debian's fortunes 1:1.99.1); it fixes the output layer of {@link Workload#model()} and the FLOP count.
     */
    static final int REFERENCE_VOCABULARY = 114;
}

package dev.brisk.cli;

import dev.brisk.nn.Activation;
import dev.brisk.nn.Input;
import dev.brisk.nn.Model;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.SymbolicTensor;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.Padding;

/**
 * The model-zoo networks of {@code docs/workloads.md}: architectures people train (a residual network, a VGG-style
 * network, an autoencoder, a wide MLP), built from the public layer API with Keras' defaults, so that the benchmark
 * measures the engine on models it was not tuned for. Each has a PyTorch twin in {@code tools/peers}.
 */
final class ZooModels {
    /** Side of the square Fashion-MNIST images. */
    private static final int SIDE = 28;
    /** Pixels of one image, the width of the flattened input. */
    private static final int PIXELS = SIDE * SIDE;
    private static final int CLASSES = 10;

    private ZooModels() {
    }

    /**
     * A residual network with ResNet-20's layout for small images: a 3x3 stem of 16 channels, three stages of two
     * basic blocks (16, 32, 64 channels; the first block of the second and third stage halves the image with a
     * stride-2 convolution and projects the shortcut with a 1x1 stride-2 convolution and batch normalization),
     * global average pooling and a 10-way logits layer.
     */
    static Model resNet() {
        SymbolicTensor input = Input.of(SIDE, SIDE, 1);
        SymbolicTensor x = convBnRelu(input, 16, 1);
        int[] channels = {16, 32, 64};
        for (int stage = 0; stage < channels.length; stage++) {
            int stride = stage == 0 ? 1 : 2;
            x = residualBlock(x, channels[stage], stride);
            x = residualBlock(x, channels[stage], 1);
        }
        x = Layers.globalAveragePooling2d().apply(x);
        return Model.of(input, Layers.dense(CLASSES).apply(x));
    }

    /**
     * A basic residual block: conv3x3 (stride {@code stride}) - BN - relu - conv3x3 - BN, added to the shortcut, then
     * relu. The shortcut is the input itself, or a 1x1 convolution of stride {@code stride} with BN where the block
     * changes the image size or the channels (so that the two branches have the same shape for the Add).
     */
    private static SymbolicTensor residualBlock(SymbolicTensor x, int filters, int stride) {
        SymbolicTensor y = convBnRelu(x, filters, stride);
        y = Layers.conv2d(filters, 3, 1, Padding.SAME, Activation.LINEAR).apply(y);
        y = Layers.batchNormalization().apply(y);
        SymbolicTensor shortcut = x;
        int inChannels = x.shape().dim(x.shape().rank() - 1);
        if (stride != 1 || inChannels != filters) {
            shortcut = Layers.conv2d(filters, 1, stride, Padding.SAME, Activation.LINEAR).apply(x);
            shortcut = Layers.batchNormalization().apply(shortcut);
        }
        SymbolicTensor sum = Layers.add().apply(y, shortcut);
        return Layers.activation(Activation.RELU).apply(sum);
    }

    /** Conv2D(filters, 3x3, stride, same, no activation) - BatchNormalization - relu. */
    private static SymbolicTensor convBnRelu(SymbolicTensor x, int filters, int stride) {
        SymbolicTensor y = Layers.conv2d(filters, 3, stride, Padding.SAME, Activation.LINEAR).apply(x);
        y = Layers.batchNormalization().apply(y);
        return Layers.activation(Activation.RELU).apply(y);
    }

    /**
     * A VGG-style network: two 3x3 same convolutions of 32 channels, max pooling, two of 64, max pooling, each
     * convolution followed by batch normalization and relu; then Dense(256, relu), dropout 0.5 and 10 logits.
     */
    static Sequential vgg() {
        return Sequential.of(
                Layers.input(SIDE, SIDE, 1),
                Layers.conv2d(32, 3, 1, Padding.SAME, Activation.LINEAR),
                Layers.batchNormalization(),
                Layers.activation(Activation.RELU),
                Layers.conv2d(32, 3, 1, Padding.SAME, Activation.LINEAR),
                Layers.batchNormalization(),
                Layers.activation(Activation.RELU),
                Layers.maxPooling2d(2),
                Layers.conv2d(64, 3, 1, Padding.SAME, Activation.LINEAR),
                Layers.batchNormalization(),
                Layers.activation(Activation.RELU),
                Layers.conv2d(64, 3, 1, Padding.SAME, Activation.LINEAR),
                Layers.batchNormalization(),
                Layers.activation(Activation.RELU),
                Layers.maxPooling2d(2),
                Layers.flatten(),
                Layers.dense(256, Activation.RELU),
                Layers.dropout(0.5f),
                Layers.dense(CLASSES));
    }

    /** A dense autoencoder 784-256-64-256-784 with a sigmoid output: pixel intensities in [0, 1]. */
    static Sequential autoencoder() {
        return Sequential.of(
                Layers.input(PIXELS),
                Layers.dense(256, Activation.RELU),
                Layers.dense(64, Activation.RELU),
                Layers.dense(256, Activation.RELU),
                Layers.dense(PIXELS, Activation.SIGMOID));
    }

    /** Dropout rate of each hidden layer of {@link #wideMlp()}. */
    static final float WIDE_MLP_DROPOUT = 0.2f;

    /**
     * A wide MLP on flattened input: four times Dense(1024, no activation) - BatchNormalization - relu - Dropout
     * ({@value #WIDE_MLP_DROPOUT}), then 10 logits.
     */
    static Sequential wideMlp() {
        Sequential m = Sequential.of(Layers.input(PIXELS));
        for (int i = 0; i < 4; i++) {
            m.add(Layers.dense(1024))
                    .add(Layers.batchNormalization())
                    .add(Layers.activation(Activation.RELU))
                    .add(Layers.dropout(WIDE_MLP_DROPOUT));
        }
        return m.add(Layers.dense(CLASSES));
    }
}

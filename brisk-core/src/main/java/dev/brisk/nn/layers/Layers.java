package dev.brisk.nn.layers;

import dev.brisk.nn.Activation;
import dev.brisk.nn.InputLayer;
import dev.brisk.nn.Initializer;
import dev.brisk.nn.Regularizer;
import dev.brisk.tensor.Shape;

/** Static factories for the built-in layers, with Keras' defaults. */
public final class Layers {
    private Layers() {
    }

    /** An input layer for samples of shape {@code dims} (first layer of a Sequential model). */
    public static InputLayer input(int... dims) {
        return new InputLayer(Shape.of(dims), null);
    }

    /** Dense with no activation (logits). */
    public static Dense dense(int units) {
        return dense(units, Activation.LINEAR);
    }

    /** Dense with {@code activation}. */
    public static Dense dense(int units, Activation activation) {
        return new Dense(units, activation, true, Initializer.glorotUniform(), Initializer.zeros(), null, null);
    }

    /** Dense with an L2 penalty on the kernel. */
    public static Dense dense(int units, Activation activation, Regularizer kernelRegularizer) {
        return new Dense(units, activation, true, Initializer.glorotUniform(), Initializer.zeros(),
                kernelRegularizer, null);
    }

    /** Conv2D with a square kernel, stride 1, "valid" padding. */
    public static Conv2D conv2d(int filters, int kernelSize, Activation activation) {
        return conv2d(filters, kernelSize, 1, Padding.VALID, activation);
    }

    /** Conv2D with a square kernel, the given stride and padding. */
    public static Conv2D conv2d(int filters, int kernelSize, int stride, Padding padding, Activation activation) {
        return new Conv2D(filters, kernelSize, kernelSize, stride, stride, padding, activation, true,
                Initializer.glorotUniform(), Initializer.zeros(), null, null);
    }

    /** Max pooling with a square window; strides equal to the window. */
    public static MaxPooling2D maxPooling2d(int poolSize) {
        return new MaxPooling2D(poolSize, poolSize, poolSize, poolSize, Padding.VALID, null);
    }

    /** MaxPooling2D with a square window, the given stride and padding. */
    public static MaxPooling2D maxPooling2d(int poolSize, int stride, Padding padding) {
        return new MaxPooling2D(poolSize, poolSize, stride, stride, padding, null);
    }

    /** AveragePooling2D with a square window, stride equal to the window, "valid" padding. */
    public static AveragePooling2D averagePooling2d(int poolSize) {
        return new AveragePooling2D(poolSize, poolSize, poolSize, poolSize, Padding.VALID, null);
    }

    /** AveragePooling2D with a square window, the given stride and padding. */
    public static AveragePooling2D averagePooling2d(int poolSize, int stride, Padding padding) {
        return new AveragePooling2D(poolSize, poolSize, stride, stride, padding, null);
    }

    /** GlobalAveragePooling2D. */
    public static GlobalAveragePooling2D globalAveragePooling2d() {
        return new GlobalAveragePooling2D(null);
    }

    /** Flatten. */
    public static Flatten flatten() {
        return new Flatten(null);
    }

    /** Reshape to a per-sample {@code targetShape}. */
    public static Reshape reshape(int... targetShape) {
        return new Reshape(targetShape, null);
    }

    /** Dropout of a fraction {@code rate}. */
    public static Dropout dropout(float rate) {
        return new Dropout(rate, null);
    }

    /** BatchNormalization with Keras' defaults: momentum 0.99, epsilon 1e-3. */
    public static BatchNormalization batchNormalization() {
        return new BatchNormalization(0.99f, 1e-3f, null);
    }

    /** An activation as a layer of its own. */
    public static ActivationLayer activation(Activation activation) {
        return new ActivationLayer(activation, null);
    }

    /** Add. */
    public static Add add() {
        return new Add(null);
    }

    /** Concatenate along the last axis. */
    public static Concatenate concatenate() {
        return new Concatenate(-1, null);
    }

    /** Concatenate along {@code axis}. */
    public static Concatenate concatenate(int axis) {
        return new Concatenate(axis, null);
    }
}

package dev.brisk.nn;

import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;
import dev.brisk.ops.UnaryFn;

/** Activation functions, with Keras names. */
public enum Activation {
    /** The identity. */
    LINEAR("linear"),
    /** {@code max(x, 0)}. */
    RELU("relu"),
    /** {@code 1 / (1 + exp(-x))}. */
    SIGMOID("sigmoid"),
    /** The hyperbolic tangent. */
    TANH("tanh"),
    /** Softmax over the last axis. */
    SOFTMAX("softmax"),
    /** GELU with the exact erf form (Keras' {@code approximate=False}). */
    GELU("gelu"),
    /** Leaky ReLU with negative slope 0.2 (keras.activations.leaky_relu's default). */
    LEAKY_RELU("leaky_relu");

    /** The negative slope of LEAKY_RELU. */
    public static final float LEAKY_SLOPE = 0.2f;
    private final String kerasName;

    Activation(String kerasName) {
        this.kerasName = kerasName;
    }

    /**
     * The name Keras uses for this activation.
     *
     * @return the name, e.g. {@code relu}
     */
    public String kerasName() {
        return kerasName;
    }

    /**
     * Applies the activation to {@code x}.
     *
     * @param g the graph the op is added to
     * @param x the input
     * @return the activated node, shaped like {@code x}; {@code x} itself for the linear activation
     */
    public Node apply(Graph g, Node x) {
        return switch (this) {
            case LINEAR -> x;
            case RELU -> g.unary(UnaryFn.RELU, x);
            case SIGMOID -> g.unary(UnaryFn.SIGMOID, x);
            case TANH -> g.unary(UnaryFn.TANH, x);
            case SOFTMAX -> g.softmax(x);
            case GELU -> g.unary(UnaryFn.GELU, x);
            case LEAKY_RELU -> g.unary(UnaryFn.LEAKY_RELU, LEAKY_SLOPE, x);
        };
    }
}

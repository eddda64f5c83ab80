package dev.brisk.nn;

import dev.brisk.graph.Graph;
import dev.brisk.ops.BinaryFn;
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
    LEAKY_RELU("leaky_relu"),
    /** {@code x} for {@code x > 0}, else {@code exp(x) - 1} (Keras' default alpha 1). */
    ELU("elu"),
    /** {@code 1.0507 * elu(x, 1.6733)}, the self-normalising constants of Klambauer et al. */
    SELU("selu"),
    /** {@code x * sigmoid(x)} (Keras 3's {@code silu}, also called swish). */
    SILU("silu"),
    /** {@code log(1 + exp(x))}, computed without overflow. */
    SOFTPLUS("softplus"),
    /** {@code x / (1 + |x|)}. */
    SOFTSIGN("softsign"),
    /** {@code min(max(x, 0), 6)}. */
    RELU6("relu6"),
    /** Keras 3's {@code relu6(x + 3) / 6}: 0 below -3, 1 above 3, linear between. */
    HARD_SIGMOID("hard_sigmoid"),
    /** {@code x * hard_sigmoid(x)} (Keras 3's {@code hard_silu}, also called hard swish). */
    HARD_SILU("hard_silu"),
    /** {@code x * tanh(softplus(x))}. */
    MISH("mish"),
    /** {@code exp(x)}. */
    EXPONENTIAL("exponential");

    /** SELU's scale (Keras' {@code 1.0507009873554804934193349852946}). */
    public static final float SELU_SCALE = 1.0507009873554805f;
    /** SELU's alpha (Keras' {@code 1.6732632423543772848170429916717}). */
    public static final float SELU_ALPHA = 1.6732632423543772f;

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
            // The rest are compositions of ops that have kernels and gradients: correct everywhere, one pass per op.
            case ELU -> elu(g, x, 1f);
            case SELU -> g.scale(elu(g, x, SELU_ALPHA), SELU_SCALE);
            case SILU -> g.mul(x, g.unary(UnaryFn.SIGMOID, x));
            case SOFTPLUS -> g.softplus(x);
            case SOFTSIGN -> g.div(x, g.addScalar(g.unary(UnaryFn.ABS, x), 1f));
            case RELU6 -> relu6(g, x);
            case HARD_SIGMOID -> g.scale(relu6(g, g.addScalar(x, 3f)), 1f / 6);
            case HARD_SILU -> g.mul(x, g.scale(relu6(g, g.addScalar(x, 3f)), 1f / 6));
            case MISH -> g.mul(x, g.unary(UnaryFn.TANH, g.softplus(x)));
            case EXPONENTIAL -> g.unary(UnaryFn.EXP, x);
        };
    }

    /**
     * The activation Keras names {@code name}, accepting Keras' aliases ({@code swish} for {@code silu},
     * {@code hard_swish} for {@code hard_silu}).
     *
     * @param name a Keras activation name
     * @return the activation
     * @throws IllegalArgumentException naming the valid names when there is none by that name
     */
    public static Activation fromKerasName(String name) {
        String canonical = switch (name) {
            case "swish" -> "silu";
            case "hard_swish" -> "hard_silu";
            default -> name;
        };
        for (Activation a : values()) {
            if (a.kerasName.equals(canonical)) {
                return a;
            }
        }
        StringBuilder valid = new StringBuilder();
        for (Activation a : values()) {
            valid.append(valid.isEmpty() ? "" : ", ").append(a.kerasName);
        }
        throw new IllegalArgumentException("unknown activation '" + name + "'; Brisk has " + valid);
    }

    /**
     * ELU with slope parameter {@code alpha}: {@code relu(x) + alpha (exp(min(x, 0)) - 1)}, the two branches as one
     * sum so that each side's gradient flows only where it applies.
     *
     * @param g the graph
     * @param x the input
     * @param alpha the value approached for large negative inputs is {@code -alpha}
     * @return the activated node
     */
    public static Node elu(Graph g, Node x, float alpha) {
        Node negative = g.binary(BinaryFn.MIN, x, g.constant(0f));
        Node expm1 = g.addScalar(g.unary(UnaryFn.EXP, negative), -1f);
        return g.add(g.unary(UnaryFn.RELU, x), g.scale(expm1, alpha));
    }

    private static Node relu6(Graph g, Node x) {
        return g.binary(BinaryFn.MIN, g.unary(UnaryFn.RELU, x), g.constant(6f));
    }
}

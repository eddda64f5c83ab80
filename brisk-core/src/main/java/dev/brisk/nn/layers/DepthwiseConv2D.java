package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.Activation;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Constraint;
import dev.brisk.nn.Initializer;
import dev.brisk.nn.Layer;
import dev.brisk.nn.Regularizer;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Shape;
import java.util.List;

/**
 * Keras' {@code DepthwiseConv2D}: each input channel convolved with its own {@code depthMultiplier} filters, NHWC;
 * kernel {@code (kh, kw, channels, depthMultiplier)} and output channel {@code c * depthMultiplier + m}, as in Keras;
 * strides, dilation (not both above 1, as in Keras) and "valid" or "same" padding. Computed by
 * {@link DepthwiseConvolution}.
 */
public final class DepthwiseConv2D extends Layer {
    private final ConvWindow window;
    private final int depthMultiplier;
    private final Activation activation;
    private final boolean useBias;
    private final Initializer depthwiseInitializer;
    private final Initializer biasInitializer;
    private final Regularizer depthwiseRegularizer;
    private Variable kernel;
    private Variable bias;

    /**
     * A depthwise convolution.
     *
     * @param kernelH kernel height
     * @param kernelW kernel width
     * @param strideH vertical step
     * @param strideW horizontal step
     * @param dilationH vertical spacing of the taps (above 1 only with strides of 1)
     * @param dilationW horizontal spacing of the taps
     * @param depthMultiplier filters per input channel (Keras' default 1)
     * @param padding VALID or SAME
     * @param activation applied to the output; {@link Activation#LINEAR} for none
     * @param useBias whether to add a bias per output channel
     * @param depthwiseInitializer makes the kernel's initial value (Keras' default Glorot uniform)
     * @param biasInitializer makes the bias's initial value (Keras' default zeros)
     * @param depthwiseRegularizer a penalty on the kernel, or null
     * @param name the layer's name, or null for an automatic one
     * @throws IllegalArgumentException if a size is not positive, the padding is CAUSAL, or both a stride and a
     *     dilation rate are above 1
     */
    public DepthwiseConv2D(int kernelH, int kernelW, int strideH, int strideW, int dilationH, int dilationW,
                           int depthMultiplier, Padding padding, Activation activation, boolean useBias,
                           Initializer depthwiseInitializer, Initializer biasInitializer,
                           Regularizer depthwiseRegularizer, String name) {
        super(name);
        this.window = ConvWindow.checked("DepthwiseConv2D", kernelH, kernelW, strideH, strideW, dilationH, dilationW,
                padding);
        if (depthMultiplier < 1) {
            throw new IllegalArgumentException("DepthwiseConv2D needs depth_multiplier >= 1, got " + depthMultiplier);
        }
        this.depthMultiplier = depthMultiplier;
        this.activation = activation;
        this.useBias = useBias;
        this.depthwiseInitializer = depthwiseInitializer;
        this.biasInitializer = biasInitializer;
        this.depthwiseRegularizer = depthwiseRegularizer;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape in = requireSizes(single(inputShapes));
        return window.depthwiseOut(this, in, in.rank() == 3 ? in.dim(2) * depthMultiplier : 0);
    }

    @Override
    protected void build(List<Shape> inputShapes) {
        int channels = inputShapes.get(0).dim(2);
        // Keras' fans of a (kh, kw, channels, multiplier) kernel: the receptive field times its last two axes.
        int fanIn = window.taps() * channels;
        int fanOut = window.taps() * depthMultiplier;
        kernel = addWeight("kernel", Shape.of(window.kernelH(), window.kernelW(), channels, depthMultiplier),
                depthwiseInitializer, true, depthwiseRegularizer, fanIn, fanOut);
        if (useBias) {
            bias = addWeight("bias", Shape.of(channels * depthMultiplier), biasInitializer, true, null, fanIn,
                    fanOut);
        }
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        return Epilogue.apply(g, DepthwiseConvolution.apply(g, inputs.get(0), g.variable(kernel), window), bias,
                activation);
    }

    /**
     * The depthwise kernel; null before the layer is built.
     *
     * @return the kernel, shaped {@code [kh, kw, channels, depthMultiplier]}
     */
    public Variable kernel() {
        return kernel;
    }

    /**
     * The bias; null without one or before the layer is built.
     *
     * @return the bias, shaped {@code [channels depthMultiplier]}, or null
     */
    public Variable bias() {
        return bias;
    }

    @Override
    public Activation outputActivation() {
        return activation;
    }

    /**
     * Keras' {@code bias_regularizer}: a penalty on the bias added to the training loss. Set before the layer is built.
     *
     * @param regularizer the penalty, or null for none
     * @return this layer
     */
    public DepthwiseConv2D biasRegularizer(Regularizer regularizer) {
        setWeightRegularizer("bias", regularizer);
        return this;
    }

    /**
     * Keras' {@code depthwise_constraint}: a projection of the kernel after each optimizer step. Set before the layer is built.
     *
     * @param constraint the constraint, or null for none
     * @return this layer
     */
    public DepthwiseConv2D depthwiseConstraint(Constraint constraint) {
        setWeightConstraint("kernel", constraint);
        return this;
    }

    /**
     * Keras' {@code bias_constraint}: a projection of the bias after each optimizer step. Set before the layer is built.
     *
     * @param constraint the constraint, or null for none
     * @return this layer
     */
    public DepthwiseConv2D biasConstraint(Constraint constraint) {
        setWeightConstraint("bias", constraint);
        return this;
    }

    /** Keras' {@code get_config()} of this layer, under Keras 3's argument names. */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        window.putSizes(c);
        c.put("depth_multiplier", depthMultiplier);
        c.put("data_format", "channels_last");
        c.put("dilation_rate", window.dilationRate());
        ConvConfig.putOutput(c, this, activation, useBias,
                new ConvConfig.Weight("depthwise", "kernel", depthwiseInitializer, depthwiseRegularizer),
                ConvConfig.Weight.bias(this, biasInitializer));
        return c;
    }
}

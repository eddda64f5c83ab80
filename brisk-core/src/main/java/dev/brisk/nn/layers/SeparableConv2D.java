package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.Activation;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Constraint;
import dev.brisk.nn.Initializer;
import dev.brisk.nn.Regularizer;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Shape;
import java.util.List;

/**
 * Keras' {@code SeparableConv2D}: a depthwise convolution (strides, dilation and padding apply to it) followed by a
 * 1x1 convolution to {@code filters} channels, then the bias and the activation. Weights as in Keras:
 * {@code depthwise_kernel (kh, kw, channels, depthMultiplier)}, {@code pointwise_kernel (1, 1, channels
 * depthMultiplier, filters)}, {@code bias (filters)}. The depthwise step is {@link DepthwiseConvolution}; the pointwise
 * step is an ordinary convolution, with the bias and the activation in its fused call.
 */
public final class SeparableConv2D extends Layer {
    private final int filters;
    private final ConvWindow window;
    private final int depthMultiplier;
    private final Activation activation;
    private final boolean useBias;
    private final Initializer depthwiseInitializer;
    private final Initializer pointwiseInitializer;
    private final Initializer biasInitializer;
    private Variable depthwiseKernel;
    private Variable pointwiseKernel;
    private Variable bias;

    /**
     * A separable convolution.
     *
     * @param filters output channels
     * @param kernelH kernel height
     * @param kernelW kernel width
     * @param strideH vertical step
     * @param strideW horizontal step
     * @param dilationH vertical spacing of the depthwise taps (above 1 only with strides of 1)
     * @param dilationW horizontal spacing of the depthwise taps
     * @param depthMultiplier depthwise filters per input channel (Keras' default 1)
     * @param padding VALID or SAME
     * @param activation applied to the output; {@link Activation#LINEAR} for none
     * @param useBias whether to add a bias per output channel
     * @param depthwiseInitializer makes the depthwise kernel (Keras' default Glorot uniform)
     * @param pointwiseInitializer makes the pointwise kernel (Keras' default Glorot uniform)
     * @param biasInitializer makes the bias (Keras' default zeros)
     * @param name the layer's name, or null for an automatic one
     * @throws IllegalArgumentException if a size is not positive, the padding is CAUSAL, or both a stride and a
     *     dilation rate are above 1
     */
    public SeparableConv2D(int filters, int kernelH, int kernelW, int strideH, int strideW, int dilationH,
                           int dilationW, int depthMultiplier, Padding padding, Activation activation,
                           boolean useBias, Initializer depthwiseInitializer, Initializer pointwiseInitializer,
                           Initializer biasInitializer, String name) {
        super(name);
        this.window = ConvWindow.checked("SeparableConv2D", kernelH, kernelW, strideH, strideW, dilationH, dilationW,
                padding);
        if (filters < 1 || depthMultiplier < 1) {
            throw new IllegalArgumentException("SeparableConv2D needs filters >= 1 and depth_multiplier >= 1, got "
                    + filters + " and " + depthMultiplier);
        }
        this.filters = filters;
        this.depthMultiplier = depthMultiplier;
        this.activation = activation;
        this.useBias = useBias;
        this.depthwiseInitializer = depthwiseInitializer;
        this.pointwiseInitializer = pointwiseInitializer;
        this.biasInitializer = biasInitializer;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        return window.depthwiseOut(this, requireSizes(single(inputShapes)), filters);
    }

    @Override
    protected void build(List<Shape> inputShapes) {
        int channels = inputShapes.get(0).dim(2);
        int middle = channels * depthMultiplier;
        depthwiseKernel = addWeight("depthwise_kernel",
                Shape.of(window.kernelH(), window.kernelW(), channels, depthMultiplier), depthwiseInitializer, true,
                null, window.taps() * channels, window.taps() * depthMultiplier);
        pointwiseKernel = addWeight("pointwise_kernel", Shape.of(1, 1, middle, filters), pointwiseInitializer, true,
                null, middle, filters);
        if (useBias) {
            bias = addWeight("bias", Shape.of(filters), biasInitializer, true, null, middle, filters);
        }
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Node depthwise = DepthwiseConvolution.apply(g, inputs.get(0), g.variable(depthwiseKernel), window);
        return g.fusing(() -> Epilogue.apply(g, g.conv2d(depthwise, g.variable(pointwiseKernel), 1, 1, false), bias,
                activation));
    }

    /**
     * The depthwise kernel; null before the layer is built.
     *
     * @return {@code [kh, kw, channels, depthMultiplier]}
     */
    public Variable depthwiseKernel() {
        return depthwiseKernel;
    }

    /**
     * The pointwise kernel; null before the layer is built.
     *
     * @return {@code [1, 1, channels depthMultiplier, filters]}
     */
    public Variable pointwiseKernel() {
        return pointwiseKernel;
    }

    /**
     * The bias; null without one or before the layer is built.
     *
     * @return {@code [filters]}, or null
     */
    public Variable bias() {
        return bias;
    }

    @Override
    public Activation outputActivation() {
        return activation;
    }

    /**
     * Keras' {@code depthwise_regularizer}: a penalty on the depthwise kernel added to the training loss. Set before the layer is built.
     *
     * @param regularizer the penalty, or null for none
     * @return this layer
     */
    public SeparableConv2D depthwiseRegularizer(Regularizer regularizer) {
        setWeightRegularizer("depthwise_kernel", regularizer);
        return this;
    }

    /**
     * Keras' {@code pointwise_regularizer}: a penalty on the pointwise kernel added to the training loss. Set before the layer is built.
     *
     * @param regularizer the penalty, or null for none
     * @return this layer
     */
    public SeparableConv2D pointwiseRegularizer(Regularizer regularizer) {
        setWeightRegularizer("pointwise_kernel", regularizer);
        return this;
    }

    /**
     * Keras' {@code bias_regularizer}: a penalty on the bias added to the training loss. Set before the layer is built.
     *
     * @param regularizer the penalty, or null for none
     * @return this layer
     */
    public SeparableConv2D biasRegularizer(Regularizer regularizer) {
        setWeightRegularizer("bias", regularizer);
        return this;
    }

    /**
     * Keras' {@code depthwise_constraint}: a projection of the depthwise kernel after each optimizer step. Set before the layer is built.
     *
     * @param constraint the constraint, or null for none
     * @return this layer
     */
    public SeparableConv2D depthwiseConstraint(Constraint constraint) {
        setWeightConstraint("depthwise_kernel", constraint);
        return this;
    }

    /**
     * Keras' {@code pointwise_constraint}: a projection of the pointwise kernel after each optimizer step. Set before the layer is built.
     *
     * @param constraint the constraint, or null for none
     * @return this layer
     */
    public SeparableConv2D pointwiseConstraint(Constraint constraint) {
        setWeightConstraint("pointwise_kernel", constraint);
        return this;
    }

    /**
     * Keras' {@code bias_constraint}: a projection of the bias after each optimizer step. Set before the layer is built.
     *
     * @param constraint the constraint, or null for none
     * @return this layer
     */
    public SeparableConv2D biasConstraint(Constraint constraint) {
        setWeightConstraint("bias", constraint);
        return this;
    }

    /** Keras' {@code get_config()} of this layer, under Keras 3's argument names. */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("filters", filters);
        window.putSizes(c);
        c.put("data_format", "channels_last");
        c.put("depth_multiplier", depthMultiplier);
        c.put("dilation_rate", window.dilationRate());
        ConvConfig.putOutput(c, this, activation, useBias,
                new ConvConfig.Weight("depthwise", "depthwise_kernel", depthwiseInitializer,
                        weightRegularizer("depthwise_kernel")),
                new ConvConfig.Weight("pointwise", "pointwise_kernel", pointwiseInitializer,
                        weightRegularizer("pointwise_kernel")),
                ConvConfig.Weight.bias(this, biasInitializer));
        return c;
    }
}

package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.Activation;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Constraint;
import dev.brisk.nn.Initializer;
import dev.brisk.nn.Layer;
import dev.brisk.nn.Regularizer;
import dev.brisk.ops.ConvAttrs;
import dev.brisk.ops.Node;
import dev.brisk.ops.ShapeInference;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Shape;
import java.util.List;

/**
 * 2-D convolution over NHWC images; kernel {@code (kh, kw, in, filters)}; padding "valid" or "same"; a dilation rate
 * above 1 (stride 1, as Keras requires) spaces the kernel's taps, computed by {@link DilatedConvolution}.
 */
public final class Conv2D extends Layer {
    private final int filters;
    private final int kernelH;
    private final int kernelW;
    private final int strideH;
    private final int strideW;
    private final int dilationH;
    private final int dilationW;
    private final Padding padding;
    private final Activation activation;
    private final boolean useBias;
    private final Initializer kernelInitializer;
    private final Initializer biasInitializer;
    private final Regularizer kernelRegularizer;
    private Variable kernel;
    private Variable bias;

    /**
     * A 2-D convolution with {@code filters} output channels and a {@code kernelH x kernelW} kernel.
     *
     * @param filters output channels
     * @param kernelH kernel height
     * @param kernelW kernel width
     * @param strideH vertical step
     * @param strideW horizontal step
     * @param padding "valid" (no padding) or "same" (output size {@code ceil(input / stride)})
     * @param activation applied to the output; {@link Activation#LINEAR} for none
     * @param useBias whether to add a bias per output channel
     * @param kernelInitializer makes the kernel's initial value (Keras' default Glorot uniform)
     * @param biasInitializer makes the bias's initial value (Keras' default zeros)
     * @param kernelRegularizer a penalty on the kernel, or null
     * @param name the layer's name, or null for an automatic one
     */
    public Conv2D(int filters, int kernelH, int kernelW, int strideH, int strideW, Padding padding,
                  Activation activation, boolean useBias, Initializer kernelInitializer,
                  Initializer biasInitializer, Regularizer kernelRegularizer, String name) {
        this(filters, kernelH, kernelW, strideH, strideW, 1, 1, padding, activation, useBias, kernelInitializer,
                biasInitializer, kernelRegularizer, name);
    }

    /**
     * A 2-D convolution whose kernel taps are {@code dilationH} rows and {@code dilationW} columns apart (Keras'
     * {@code dilation_rate}).
     *
     * @param filters output channels
     * @param kernelH kernel height
     * @param kernelW kernel width
     * @param strideH vertical step
     * @param strideW horizontal step
     * @param dilationH vertical spacing of the taps; above 1 only with strides of 1, as in Keras
     * @param dilationW horizontal spacing of the taps; above 1 only with strides of 1
     * @param padding "valid" or "same" (over the dilated window's span)
     * @param activation applied to the output; {@link Activation#LINEAR} for none
     * @param useBias whether to add a bias per output channel
     * @param kernelInitializer makes the kernel's initial value (Keras' default Glorot uniform)
     * @param biasInitializer makes the bias's initial value (Keras' default zeros)
     * @param kernelRegularizer a penalty on the kernel, or null
     * @param name the layer's name, or null for an automatic one
     * @throws IllegalArgumentException if a size is not positive, or both a stride and a dilation rate are above 1
     */
    public Conv2D(int filters, int kernelH, int kernelW, int strideH, int strideW, int dilationH, int dilationW,
                  Padding padding, Activation activation, boolean useBias, Initializer kernelInitializer,
                  Initializer biasInitializer, Regularizer kernelRegularizer, String name) {
        super(name);
        if (filters < 1 || kernelH < 1 || kernelW < 1 || strideH < 1 || strideW < 1 || dilationH < 1
                || dilationW < 1) {
            throw new IllegalArgumentException("Conv2D needs positive filters, kernel size, strides and dilation "
                    + "rate");
        }
        if ((dilationH > 1 || dilationW > 1) && (strideH > 1 || strideW > 1)) {
            throw new IllegalArgumentException("Conv2D: strides > 1 are not supported with dilation_rate > 1 (got "
                    + "strides (" + strideH + ", " + strideW + "), dilation rate (" + dilationH + ", " + dilationW
                    + ")), as in Keras");
        }
        this.dilationH = dilationH;
        this.dilationW = dilationW;
        if (padding == Padding.CAUSAL) {
            throw new IllegalArgumentException("Conv2D takes padding VALID or SAME; CAUSAL is for Conv1D");
        }
        this.filters = filters;
        this.kernelH = kernelH;
        this.kernelW = kernelW;
        this.strideH = strideH;
        this.strideW = strideW;
        this.padding = padding;
        this.activation = activation;
        this.useBias = useBias;
        this.kernelInitializer = kernelInitializer;
        this.biasInitializer = biasInitializer;
        this.kernelRegularizer = kernelRegularizer;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape in = requireSizes(single(inputShapes));
        if (in.rank() != 3) {
            throw new IllegalArgumentException("Conv2D expects input of rank 4 (batch, height, width, channels), "
                    + "got shape " + withBatch(in));
        }
        boolean same = padding == Padding.SAME;
        int h = dilated() ? DilatedConvolution.pads(in.dim(0), kernelH, dilationH, same)[2]
                : ShapeInference.outAndPad(in.dim(0), kernelH, strideH, same)[0];
        int w = dilated() ? DilatedConvolution.pads(in.dim(1), kernelW, dilationW, same)[2]
                : ShapeInference.outAndPad(in.dim(1), kernelW, strideW, same)[0];
        if (h <= 0 || w <= 0) {
            throw new IllegalArgumentException("kernel " + kernelH + "x" + kernelW + " does not fit input "
                    + withBatch(in) + " with padding 'valid'");
        }
        return Shape.of(h, w, filters);
    }

    @Override
    protected void build(List<Shape> inputShapes) {
        int channels = inputShapes.get(0).dim(2);
        int fanIn = kernelH * kernelW * channels;
        int fanOut = kernelH * kernelW * filters;
        kernel = addWeight("kernel", Shape.of(kernelH, kernelW, channels, filters), kernelInitializer, true,
                kernelRegularizer, fanIn, fanOut);
        if (useBias) {
            bias = addWeight("bias", Shape.of(filters), biasInitializer, true, null, fanIn, fanOut);
        }
    }

    private boolean dilated() {
        return dilationH > 1 || dilationW > 1;
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Node x = inputs.get(0);
        if (dilated()) {
            boolean same = padding == Padding.SAME;
            int[] h = DilatedConvolution.pads(x.shape().dim(1), kernelH, dilationH, same);
            int[] w = DilatedConvolution.pads(x.shape().dim(2), kernelW, dilationW, same);
            return DilatedConvolution.apply(g, x, g.variable(kernel), dilationH, dilationW,
                    new int[] {h[0], h[1], w[0], w[1]}, y -> Epilogue.apply(g, y, bias, activation));
        }
        // One fused call in eager mode too, as in a compiled plan.
        return g.fusing(() -> Epilogue.apply(g, g.conv2d(x, g.variable(kernel), strideH, strideW,
                padding == Padding.SAME), bias, activation));
    }

    /**
     * The convolution attributes (for tests).
     *
     * @return the geometry and activation of the convolution op
     */
    public ConvAttrs attrs() {
        return new ConvAttrs(strideH, strideW, padding == Padding.SAME);
    }

    /**
     * The convolution kernel; null before the layer is built.
     *
     * @return the kernel, shaped {@code [kernelH, kernelW, inChannels, filters]}
     */
    public Variable kernel() {
        return kernel;
    }

    /**
     * The bias; null without one or before the layer is built.
     *
     * @return the bias, or null
     */
    public Variable bias() {
        return bias;
    }

    @Override
    public Activation outputActivation() {
        return activation;
    }

    /**
     * Keras' {@code bias_regularizer}: a penalty on the bias added to the training loss. Set before the layer is
     * built.
     *
     * @param regularizer the penalty, or null for none
     * @return this layer
     */
    public Conv2D biasRegularizer(Regularizer regularizer) {
        setWeightRegularizer("bias", regularizer);
        return this;
    }

    /**
     * Keras' {@code kernel_constraint}: a projection of the kernel after each optimizer step. Set before the layer
     * is built.
     *
     * @param constraint the constraint, or null for none
     * @return this layer
     */
    public Conv2D kernelConstraint(Constraint constraint) {
        setWeightConstraint("kernel", constraint);
        return this;
    }

    /**
     * Keras' {@code bias_constraint}: a projection of the bias after each optimizer step. Set before the layer is
     * built.
     *
     * @param constraint the constraint, or null for none
     * @return this layer
     */
    public Conv2D biasConstraint(Constraint constraint) {
        setWeightConstraint("bias", constraint);
        return this;
    }

    /** Keras' {@code get_config()} of this layer, under Keras 3's argument names. */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("filters", filters);
        c.put("kernel_size", java.util.List.of(kernelH, kernelW));
        c.put("strides", java.util.List.of(strideH, strideW));
        c.put("padding", padding.name().toLowerCase(java.util.Locale.ROOT));
        c.put("data_format", "channels_last");
        c.put("dilation_rate", java.util.List.of(dilationH, dilationW));
        c.put("groups", 1);
        c.put("activation", activation.kerasName());
        c.put("use_bias", useBias);
        c.put("kernel_initializer", kernelInitializer);
        c.put("bias_initializer", biasInitializer);
        c.put("kernel_regularizer", kernelRegularizer);
        c.put("bias_regularizer", weightRegularizer("bias"));
        c.put("activity_regularizer", activityRegularizer());
        c.put("kernel_constraint", weightConstraint("kernel"));
        c.put("bias_constraint", weightConstraint("bias"));
        return c;
    }
}

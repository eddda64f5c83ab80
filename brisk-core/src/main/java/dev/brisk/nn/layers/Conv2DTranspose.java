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
 * Keras' {@code Conv2DTranspose} over NHWC images: kernel {@code (kh, kw, filters, channels)} as in Keras (output
 * channels before input channels). It is the gradient of a convolution with respect to its input, so it runs on the
 * same kernels as a convolution's backward pass ({@code CONV2D_GRAD_INPUT}: gemm, then col2im). Output size as Keras
 * computes it without {@code output_padding}: {@code in * stride} for "same", {@code in * stride + max(k - stride, 0)}
 * for "valid".
 */
public final class Conv2DTranspose extends Layer {
    private final int filters;
    private final ConvWindow window;
    private final Activation activation;
    private final boolean useBias;
    private final Initializer kernelInitializer;
    private final Initializer biasInitializer;
    private final Regularizer kernelRegularizer;
    private Variable kernel;
    private Variable bias;

    /**
     * A transposed convolution.
     *
     * @param filters output channels
     * @param kernelH kernel height
     * @param kernelW kernel width
     * @param strideH vertical step (the output is about this many times taller)
     * @param strideW horizontal step
     * @param padding VALID or SAME
     * @param activation applied to the output; {@link Activation#LINEAR} for none
     * @param useBias whether to add a bias per output channel
     * @param kernelInitializer makes the kernel (Keras' default Glorot uniform)
     * @param biasInitializer makes the bias (Keras' default zeros)
     * @param kernelRegularizer a penalty on the kernel, or null
     * @param name the layer's name, or null for an automatic one
     * @throws IllegalArgumentException if a size is not positive or the padding is CAUSAL
     */
    public Conv2DTranspose(int filters, int kernelH, int kernelW, int strideH, int strideW, Padding padding,
                           Activation activation, boolean useBias, Initializer kernelInitializer,
                           Initializer biasInitializer, Regularizer kernelRegularizer, String name) {
        super(name);
        if (filters < 1) {
            throw new IllegalArgumentException("Conv2DTranspose needs filters >= 1, got " + filters);
        }
        this.window = ConvWindow.checked("Conv2DTranspose", kernelH, kernelW, strideH, strideW, 1, 1, padding);
        this.filters = filters;
        this.activation = activation;
        this.useBias = useBias;
        this.kernelInitializer = kernelInitializer;
        this.biasInitializer = biasInitializer;
        this.kernelRegularizer = kernelRegularizer;
    }

    /** Keras' {@code compute_conv_transpose_output_length} without output padding. */
    private int length(int in, int kernel, int stride) {
        return window.same() ? in * stride : in * stride + Math.max(kernel - stride, 0);
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape in = requireSizes(single(inputShapes));
        if (in.rank() != 3) {
            throw new IllegalArgumentException("Conv2DTranspose expects input of rank 4 (batch, height, width, "
                    + "channels), got shape " + withBatch(in));
        }
        return Shape.of(length(in.dim(0), window.kernelH(), window.strideH()),
                length(in.dim(1), window.kernelW(), window.strideW()), filters);
    }

    @Override
    protected void build(List<Shape> inputShapes) {
        int channels = inputShapes.get(0).dim(2);
        // Keras' fans of a (kh, kw, filters, channels) kernel: the receptive field times its last two axes.
        int fanIn = window.taps() * filters;
        int fanOut = window.taps() * channels;
        kernel = addWeight("kernel", Shape.of(window.kernelH(), window.kernelW(), filters, channels),
                kernelInitializer, true, kernelRegularizer, fanIn, fanOut);
        if (useBias) {
            bias = addWeight("bias", Shape.of(filters), biasInitializer, true, null, fanIn, fanOut);
        }
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Node x = inputs.get(0);
        Shape s = x.shape();
        ConvWindow k = window;
        Shape out = Shape.of(s.dim(0), length(s.dim(1), k.kernelH(), k.strideH()),
                length(s.dim(2), k.kernelW(), k.strideW()), filters);
        return Epilogue.apply(g, g.conv2dTranspose(x, g.variable(kernel), k.strideH(), k.strideW(), k.same(), out),
                bias, activation);
    }

    /**
     * The kernel; null before the layer is built.
     *
     * @return {@code [kh, kw, filters, channels]}
     */
    public Variable kernel() {
        return kernel;
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
     * Keras' {@code bias_regularizer}: a penalty on the bias added to the training loss. Set before the layer is built.
     *
     * @param regularizer the penalty, or null for none
     * @return this layer
     */
    public Conv2DTranspose biasRegularizer(Regularizer regularizer) {
        setWeightRegularizer("bias", regularizer);
        return this;
    }

    /**
     * Keras' {@code kernel_constraint}: a projection of the kernel after each optimizer step. Set before the layer is built.
     *
     * @param constraint the constraint, or null for none
     * @return this layer
     */
    public Conv2DTranspose kernelConstraint(Constraint constraint) {
        setWeightConstraint("kernel", constraint);
        return this;
    }

    /**
     * Keras' {@code bias_constraint}: a projection of the bias after each optimizer step. Set before the layer is built.
     *
     * @param constraint the constraint, or null for none
     * @return this layer
     */
    public Conv2DTranspose biasConstraint(Constraint constraint) {
        setWeightConstraint("bias", constraint);
        return this;
    }

    /** Keras' {@code get_config()} of this layer, under Keras 3's argument names. */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("filters", filters);
        window.putSizes(c);
        c.put("output_padding", null);
        c.put("data_format", "channels_last");
        c.put("dilation_rate", window.dilationRate());
        ConvConfig.putOutput(c, this, activation, useBias,
                new ConvConfig.Weight("kernel", "kernel", kernelInitializer, kernelRegularizer),
                ConvConfig.Weight.bias(this, biasInitializer));
        return c;
    }
}

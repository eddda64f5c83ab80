package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.Activation;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Constraint;
import dev.brisk.nn.Initializer;
import dev.brisk.nn.Layer;
import dev.brisk.nn.Regularizer;
import dev.brisk.ops.Node;
import dev.brisk.ops.ShapeInference;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;

/**
 * Keras' {@code Conv1D}: {@code (batch, steps, channels) -> (batch, steps', filters)}, kernel
 * {@code (kernelSize, channels, filters)} as in Keras. The input is viewed as an NHWC image of height 1 and the kernel
 * as {@code (1, kernelSize, channels, filters)} (both reshapes are views of the same memory), so the fused Conv2D
 * kernels (convolution + bias + activation in one call) compute it. Padding VALID, SAME or CAUSAL: causal puts
 * {@code kernelSize - 1} zero steps before the first (a concatenation with a constant), then convolves "valid", so
 * output step t sees input steps up to t. A dilation rate {@code d > 1} (stride 1, as Keras requires) is computed
 * without a dilated kernel, as Conv2D's ({@link DilatedConvolution}): the padded steps are split into {@code d}
 * interleaved phases, one ordinary convolution runs over all of them, and the outputs are interleaved again.
 */
public final class Conv1D extends Layer {
    private final int filters;
    private final int kernelSize;
    private final int stride;
    private final int dilationRate;
    private final Padding padding;
    private final Activation activation;
    private final boolean useBias;
    private final Initializer kernelInitializer;
    private final Initializer biasInitializer;
    private final Regularizer kernelRegularizer;
    private Variable kernel;
    private Variable bias;
    /** The zero steps a causal convolution puts before its input, kept from call to call (eager mode). */
    private Tensor causalZeros;

    /**
     * A 1-D convolution.
     *
     * @param filters the number of output channels
     * @param kernelSize the window length in steps
     * @param stride the step between windows
     * @param padding VALID, SAME or CAUSAL
     * @param dilationRate the spacing of the window's taps; above 1 only with stride 1, as in Keras
     * @param activation applied to the output; {@link Activation#LINEAR} for none
     * @param useBias whether to add a bias
     * @param kernelInitializer makes the kernel's initial value (Keras' default Glorot uniform)
     * @param biasInitializer makes the bias's initial value (Keras' default zeros)
     * @param kernelRegularizer a penalty on the kernel, or null
     * @param name the layer's name, or null for an automatic one
     * @throws IllegalArgumentException if a size is not positive, or both the stride and the dilation rate are above 1
     */
    public Conv1D(int filters, int kernelSize, int stride, Padding padding, int dilationRate, Activation activation,
                  boolean useBias, Initializer kernelInitializer, Initializer biasInitializer,
                  Regularizer kernelRegularizer, String name) {
        super(name);
        if (filters < 1 || kernelSize < 1 || stride < 1 || dilationRate < 1) {
            throw new IllegalArgumentException("Conv1D needs positive filters, kernel size, stride and dilation rate");
        }
        if (dilationRate != 1 && stride != 1) {
            throw new IllegalArgumentException("Conv1D: strides > 1 are not supported with dilation_rate > 1 (got "
                    + "strides " + stride + ", dilation rate " + dilationRate + "), as in Keras");
        }
        this.filters = filters;
        this.kernelSize = kernelSize;
        this.stride = stride;
        this.dilationRate = dilationRate;
        this.padding = padding;
        this.activation = activation;
        this.useBias = useBias;
        this.kernelInitializer = kernelInitializer;
        this.biasInitializer = biasInitializer;
        this.kernelRegularizer = kernelRegularizer;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape in = single(inputShapes);
        if (in.rank() != 2) {
            throw new IllegalArgumentException("Conv1D expects input of rank 3 (batch, steps, channels), got shape "
                    + withBatch(in));
        }
        if (in.dim(0) == Shape.OPEN) {
            return Shape.of(Shape.OPEN, filters); // an open length stays open; each batch's is checked when traced
        }
        int steps = dilationRate > 1 ? dilatedPads(in.dim(0))[2] : padding == Padding.CAUSAL
                ? ShapeInference.outAndPad(in.dim(0) + kernelSize - 1, kernelSize, stride, false)[0]
                : ShapeInference.outAndPad(in.dim(0), kernelSize, stride, padding == Padding.SAME)[0];
        if (steps <= 0) {
            throw new IllegalArgumentException("kernel " + kernelSize + " does not fit input " + withBatch(in)
                    + " with padding 'valid'");
        }
        return Shape.of(steps, filters);
    }

    /**
     * For a dilated window over {@code steps}: the zero steps added before and after the input and the output length.
     * The window spans {@code (k - 1) d + 1} steps; "same" pads as TF does for stride 1 (the smaller half before).
     */
    private int[] dilatedPads(int steps) {
        int span = (kernelSize - 1) * dilationRate + 1;
        int before = switch (padding) {
            case VALID -> 0;
            case CAUSAL -> span - 1;
            case SAME -> (span - 1) / 2;
        };
        int after = padding == Padding.SAME ? span - 1 - before : 0;
        return new int[] {before, after, steps + before + after - span + 1};
    }

    /** The dilated convolution: Conv2D's rule ({@link DilatedConvolution}) over a one-row image. */
    private Node dilated(Graph g, Node x) {
        Shape s = x.shape();
        int[] pads = dilatedPads(s.dim(1));
        Node image = g.reshape(x, Shape.of(s.dim(0), 1, s.dim(1), s.dim(2)));
        Node window = g.reshape(g.variable(kernel), Shape.of(1, kernelSize, s.dim(2), filters));
        Node y = DilatedConvolution.apply(g, image, window, 1, dilationRate, new int[] {0, 0, pads[0], pads[1]},
                out -> Epilogue.apply(g, out, bias, activation));
        return g.reshape(y, Shape.of(s.dim(0), pads[2], filters));
    }

    @Override
    protected void build(List<Shape> inputShapes) {
        int channels = inputShapes.get(0).dim(1);
        int fanIn = kernelSize * channels;
        int fanOut = kernelSize * filters;
        kernel = addWeight("kernel", Shape.of(kernelSize, channels, filters), kernelInitializer, true,
                kernelRegularizer, fanIn, fanOut);
        if (useBias) {
            bias = addWeight("bias", Shape.of(filters), biasInitializer, true, null, fanIn, fanOut);
        }
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Node x = inputs.get(0);
        if (dilationRate > 1) {
            return dilated(g, x);
        }
        Shape s = x.shape();
        Node image = g.reshape(x, Shape.of(s.dim(0), 1, s.dim(1), s.dim(2)));
        if (padding == Padding.CAUSAL && kernelSize > 1) {
            Shape zeros = Shape.of(s.dim(0), 1, kernelSize - 1, s.dim(2));
            if (causalZeros == null || !causalZeros.shape().equals(zeros)) {
                causalZeros = Tensor.zeros(zeros);
            }
            image = g.concat(2, List.of(g.constant(causalZeros), image));
        }
        Node window = g.reshape(g.variable(kernel), Shape.of(1, kernelSize, s.dim(2), filters));
        Node in = image;
        // One fused call in eager mode too, as in a compiled plan.
        Node y = g.fusing(() -> Epilogue.apply(g, g.conv2d(in, window, 1, stride, padding == Padding.SAME), bias,
                activation));
        Shape o = y.shape();
        return g.reshape(y, Shape.of(o.dim(0), o.dim(2), o.dim(3)));
    }

    /**
     * The kernel; null before the layer is built.
     *
     * @return the kernel, shaped {@code [kernelSize, channels, filters]}
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
    public Conv1D biasRegularizer(Regularizer regularizer) {
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
    public Conv1D kernelConstraint(Constraint constraint) {
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
    public Conv1D biasConstraint(Constraint constraint) {
        setWeightConstraint("bias", constraint);
        return this;
    }

    /** Keras' {@code get_config()} of this layer, under Keras 3's argument names. */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("filters", filters);
        c.put("kernel_size", java.util.List.of(kernelSize));
        c.put("strides", java.util.List.of(stride));
        c.put("padding", padding.name().toLowerCase(java.util.Locale.ROOT));
        c.put("data_format", "channels_last");
        c.put("dilation_rate", java.util.List.of(dilationRate));
        c.put("groups", 1);
        ConvConfig.putOutput(c, this, activation, useBias,
                new ConvConfig.Weight("kernel", "kernel", kernelInitializer, kernelRegularizer),
                ConvConfig.Weight.bias(this, biasInitializer));
        return c;
    }
}

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
import java.util.Map;

/**
 * 2-D convolution over NHWC images; kernel {@code (kh, kw, in, filters)}; padding "valid" or "same"; a dilation rate
 * above 1 (stride 1, as Keras requires) spaces the kernel's taps, computed by {@link DilatedConvolution}.
 */
public final class Conv2D extends Layer {
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
        if (filters < 1) {
            throw new IllegalArgumentException("Conv2D needs filters >= 1, got " + filters);
        }
        this.window = ConvWindow.checked("Conv2D", kernelH, kernelW, strideH, strideW, dilationH, dilationW, padding);
        this.filters = filters;
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
        ConvWindow k = window;
        boolean same = k.same();
        int h = k.dilated() ? DilatedConvolution.pads(in.dim(0), k.kernelH(), k.dilationH(), same)[2]
                : ShapeInference.outAndPad(in.dim(0), k.kernelH(), k.strideH(), same)[0];
        int w = k.dilated() ? DilatedConvolution.pads(in.dim(1), k.kernelW(), k.dilationW(), same)[2]
                : ShapeInference.outAndPad(in.dim(1), k.kernelW(), k.strideW(), same)[0];
        if (h <= 0 || w <= 0) {
            throw new IllegalArgumentException("kernel " + k.kernelH() + "x" + k.kernelW() + " does not fit input "
                    + withBatch(in) + " with padding 'valid'");
        }
        return Shape.of(h, w, filters);
    }

    @Override
    protected void build(List<Shape> inputShapes) {
        int channels = inputShapes.get(0).dim(2);
        int fanIn = window.taps() * channels;
        int fanOut = window.taps() * filters;
        kernel = addWeight("kernel", Shape.of(window.kernelH(), window.kernelW(), channels, filters),
                kernelInitializer, true, kernelRegularizer, fanIn, fanOut);
        if (useBias) {
            bias = addWeight("bias", Shape.of(filters), biasInitializer, true, null, fanIn, fanOut);
        }
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Node x = inputs.get(0);
        ConvWindow k = window;
        if (k.dilated()) {
            int[] h = DilatedConvolution.pads(x.shape().dim(1), k.kernelH(), k.dilationH(), k.same());
            int[] w = DilatedConvolution.pads(x.shape().dim(2), k.kernelW(), k.dilationW(), k.same());
            return DilatedConvolution.apply(g, x, g.variable(kernel), k.dilationH(), k.dilationW(),
                    new int[] {h[0], h[1], w[0], w[1]}, y -> Epilogue.apply(g, y, bias, activation));
        }
        // One fused call in eager mode too, as in a compiled plan.
        return g.fusing(() -> Epilogue.apply(g, g.conv2d(x, g.variable(kernel), k.strideH(), k.strideW(), k.same()),
                bias, activation));
    }

    /**
     * The convolution attributes (for tests).
     *
     * @return the geometry and activation of the convolution op
     */
    public ConvAttrs attrs() {
        return new ConvAttrs(window.strideH(), window.strideW(), window.same());
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
    public Map<String, Object> kerasConfig() {
        Map<String, Object> c = super.kerasConfig();
        c.put("filters", filters);
        window.putSizes(c);
        c.put("data_format", "channels_last");
        c.put("dilation_rate", window.dilationRate());
        c.put("groups", 1);
        ConvConfig.putOutput(c, this, activation, useBias,
                new ConvConfig.Weight("kernel", "kernel", kernelInitializer, kernelRegularizer),
                ConvConfig.Weight.bias(this, biasInitializer));
        return c;
    }
}

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
 * A fully connected layer: {@code activation(x @ kernel + bias)}, kernel {@code (in, units)}. As in Keras it applies
 * over the last axis of an input of any rank, {@code (batch, .., in) -> (batch, .., units)}: a higher-rank input is
 * viewed as a {@code (rows, in)} matrix around the product, so the fused gemm + bias + activation kernel serves it.
 */
public final class Dense extends Layer {
    private final int units;
    private final Activation activation;
    private final boolean useBias;
    private final Initializer kernelInitializer;
    private final Initializer biasInitializer;
    private final Regularizer kernelRegularizer;
    private Variable kernel;
    private Variable bias;

    /**
     * A fully connected layer with {@code units} outputs.
     *
     * @param units output units
     * @param activation applied to the output; {@link Activation#LINEAR} for none
     * @param useBias whether to add a bias
     * @param kernelInitializer makes the kernel's initial value (Keras' default Glorot uniform)
     * @param biasInitializer makes the bias's initial value (Keras' default zeros)
     * @param kernelRegularizer a penalty on the kernel, or null
     * @param name the layer's name, or null for an automatic one
     */
    public Dense(int units, Activation activation, boolean useBias, Initializer kernelInitializer,
                 Initializer biasInitializer, Regularizer kernelRegularizer, String name) {
        super(name);
        if (units < 1) {
            throw new IllegalArgumentException("Dense needs at least one unit, got " + units);
        }
        this.units = units;
        this.activation = activation;
        this.useBias = useBias;
        this.kernelInitializer = kernelInitializer;
        this.biasInitializer = biasInitializer;
        this.kernelRegularizer = kernelRegularizer;
    }

    /**
     * The number of outputs.
     *
     * @return the units
     */
    public int units() {
        return units;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape in = single(inputShapes);
        if (in.rank() < 1) {
            throw new IllegalArgumentException("Dense expects input of rank 2 or more (batch, .., features), got "
                    + "shape " + withBatch(in));
        }
        return in.withDim(-1, units);
    }

    @Override
    protected void build(List<Shape> inputShapes) {
        int in = inputShapes.get(0).dim(-1);
        kernel = addWeight("kernel", Shape.of(in, units), kernelInitializer, true, kernelRegularizer, in, units);
        if (useBias) {
            bias = addWeight("bias", Shape.of(units), biasInitializer, true, null, in, units);
        }
    }

    /** Each step alone: the input's padding mask stays with the output, as Keras' {@code supports_masking}. */
    @Override
    protected boolean passesMask() {
        return true;
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        // One fused call in eager mode too, as in a compiled plan.
        Node x = inputs.get(0);
        Shape shape = x.shape();
        Node rows = shape.rank() == 2 ? x : g.reshape(x, Shape.of(shape.size() / shape.dim(-1), shape.dim(-1)));
        Node out = g.fusing(() -> {
            Node y = g.matmul(rows, g.variable(kernel));
            if (useBias) {
                y = g.add(y, g.variable(bias));
            }
            return activation.apply(g, y);
        });
        return shape.rank() == 2 ? out : g.reshape(out, shape.withDim(-1, units));
    }

    /**
     * The weight matrix; null before the layer is built.
     *
     * @return the kernel, shaped {@code [inputs, units]}
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
    public Dense biasRegularizer(Regularizer regularizer) {
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
    public Dense kernelConstraint(Constraint constraint) {
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
    public Dense biasConstraint(Constraint constraint) {
        setWeightConstraint("bias", constraint);
        return this;
    }

    /** Keras' {@code get_config()} of this layer, under Keras 3's argument names. */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("units", units);
        c.put("activation", activation.kerasName());
        c.put("use_bias", useBias);
        c.put("kernel_initializer", kernelInitializer);
        c.put("bias_initializer", biasInitializer);
        c.put("kernel_regularizer", kernelRegularizer);
        c.put("bias_regularizer", weightRegularizer("bias"));
        c.put("kernel_constraint", weightConstraint("kernel"));
        c.put("bias_constraint", weightConstraint("bias"));
        if (activityRegularizer() != null) {
            c.put("activity_regularizer", activityRegularizer());
        }
        return c;
    }
}

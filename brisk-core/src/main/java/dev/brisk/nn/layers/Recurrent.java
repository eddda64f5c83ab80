package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Initializer;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.ops.RecurrentAttrs;
import dev.brisk.ops.RecurrentCell;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Shape;
import java.util.List;

/**
 * The recurrent layers' common part: input {@code (batch, steps, features)}, Keras' weights {@code kernel
 * [features, gates units]}, {@code recurrent_kernel [units, gates units]} and {@code bias}, tanh as the activation
 * and sigmoid as the recurrent activation, a zero initial state, and one RECURRENT_SEQUENCE op over the whole
 * sequence (per-step gemms and fused gate passes inside one kernel, backward through time in another).
 */
public abstract class Recurrent extends Layer {
    private final RecurrentCell cell;
    private final int units;
    private final boolean returnSequences;
    private final boolean goBackwards;
    private final Initializer kernelInitializer;
    private final Initializer recurrentInitializer;
    private final Initializer biasInitializer;
    private Variable kernel;
    private Variable recurrentKernel;
    private Variable bias;

    /**
     * A recurrent layer.
     *
     * @param cell the cell
     * @param units the state size
     * @param returnSequences true to output every step's state {@code (batch, steps, units)}, false for the last
     * @param goBackwards true to process the sequence from its last step (the output sequence is then reversed)
     * @param kernelInitializer the kernel's initializer (Keras: Glorot uniform)
     * @param recurrentInitializer the recurrent kernel's initializer (Keras: orthogonal)
     * @param biasInitializer the bias's initializer
     * @param name the layer's name, or null for an automatic one
     * @throws IllegalArgumentException when {@code units < 1}
     */
    protected Recurrent(RecurrentCell cell, int units, boolean returnSequences, boolean goBackwards,
                        Initializer kernelInitializer, Initializer recurrentInitializer, Initializer biasInitializer,
                        String name) {
        super(name);
        if (units < 1) {
            throw new IllegalArgumentException(getClass().getSimpleName() + " needs at least one unit, got " + units);
        }
        this.cell = cell;
        this.units = units;
        this.returnSequences = returnSequences;
        this.goBackwards = goBackwards;
        this.kernelInitializer = kernelInitializer;
        this.recurrentInitializer = recurrentInitializer;
        this.biasInitializer = biasInitializer;
    }

    /**
     * The state size.
     *
     * @return the units
     */
    public int units() {
        return units;
    }

    /**
     * Whether every step's state is output.
     *
     * @return true for sequences
     */
    public boolean returnSequences() {
        return returnSequences;
    }

    /**
     * Whether the sequence is processed from its last step.
     *
     * @return true when backwards
     */
    public boolean goBackwards() {
        return goBackwards;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape in = single(inputShapes);
        if (in.rank() != 2) {
            throw new IllegalArgumentException(typeName() + " expects input of rank 3 (batch, steps, features), got "
                    + "shape " + withBatch(in));
        }
        return returnSequences ? Shape.of(in.dim(0), units) : Shape.of(units);
    }

    @Override
    protected void build(List<Shape> inputShapes) {
        int in = inputShapes.get(0).dim(1);
        int width = cell.gates() * units;
        kernel = addWeight("kernel", Shape.of(in, width), kernelInitializer, true, null, in, width);
        recurrentKernel = addWeight("recurrent_kernel", Shape.of(units, width), recurrentInitializer, true, null,
                units, width);
        Shape biasShape = cell == RecurrentCell.GRU ? Shape.of(2, width) : Shape.of(width);
        bias = addWeight("bias", biasShape, biasInitializer, true, null, in, width);
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        RecurrentAttrs attrs = new RecurrentAttrs(cell, units, returnSequences, goBackwards, true);
        return g.recurrentSequence(attrs, inputs.get(0), g.variable(kernel), g.variable(recurrentKernel),
                g.variable(bias));
    }

    /**
     * The input kernel {@code [features, gates units]}; null before the layer is built.
     *
     * @return the kernel
     */
    public Variable kernel() {
        return kernel;
    }

    /**
     * The recurrent kernel {@code [units, gates units]}; null before the layer is built.
     *
     * @return the recurrent kernel
     */
    public Variable recurrentKernel() {
        return recurrentKernel;
    }

    /**
     * The bias; null before the layer is built.
     *
     * @return the bias
     */
    public Variable bias() {
        return bias;
    }

    /** Keras' {@code get_config()} of this layer, under Keras 3's argument names. */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("units", units);
        c.put("activation", "tanh");
        if (cell != RecurrentCell.SIMPLE) {
            c.put("recurrent_activation", "sigmoid");
        }
        c.put("use_bias", true);
        c.put("kernel_initializer", kernelInitializer);
        c.put("recurrent_initializer", recurrentInitializer);
        c.put("bias_initializer", biasInitializer);
        if (cell == RecurrentCell.LSTM) {
            c.put("unit_forget_bias", true);
        }
        if (cell == RecurrentCell.GRU) {
            c.put("reset_after", true);
        }
        c.put("dropout", 0f);
        c.put("recurrent_dropout", 0f);
        c.put("return_sequences", returnSequences);
        c.put("return_state", false);
        c.put("go_backwards", goBackwards);
        c.put("stateful", false);
        c.put("unroll", false);
        return c;
    }
}

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
import java.util.ArrayList;
import java.util.List;

/**
 * The recurrent layers' common part: input {@code (batch, steps, features)}, Keras' weights {@code kernel
 * [features, gates units]}, {@code recurrent_kernel [units, gates units]} and {@code bias}, tanh as the activation
 * and sigmoid as the recurrent activation, and one RECURRENT_SEQUENCE op over the whole sequence (per-step gemms and
 * fused gate passes inside one kernel, backward through time in another).
 *
 * <p>As in Keras: the initial state is zero unless the layer is called with more inputs, {@code (x, h)} or LSTM's
 * {@code (x, h, c)}, each {@code (batch, units)}; a padding mask on the input (from {@code Embedding(maskZero)})
 * makes masked steps carry the state through unchanged inside the kernel, output the previous output (zeros before
 * the first real step), and get no gradient; with {@code returnState} the layer has several outputs
 * ({@link #applyAll}): the output, then the final {@code h} (and LSTM's {@code c}). With {@code returnSequences} the
 * sequence output keeps the input's mask.
 */
public abstract class Recurrent extends Layer {
    private final RecurrentCell cell;
    private final int units;
    private final boolean returnSequences;
    private final boolean goBackwards;
    private final boolean returnState;
    private boolean zeroOutputForMask;
    private boolean outputInTimeOrder;
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
     * @param returnState true to output the final states after the output
     * @param kernelInitializer the kernel's initializer (Keras: Glorot uniform)
     * @param recurrentInitializer the recurrent kernel's initializer (Keras: orthogonal)
     * @param biasInitializer the bias's initializer
     * @param name the layer's name, or null for an automatic one
     * @throws IllegalArgumentException when {@code units < 1}
     */
    protected Recurrent(RecurrentCell cell, int units, boolean returnSequences, boolean goBackwards,
                        boolean returnState, Initializer kernelInitializer, Initializer recurrentInitializer, Initializer biasInitializer,
                        String name) {
        super(name);
        if (units < 1) {
            throw new IllegalArgumentException(getClass().getSimpleName() + " needs at least one unit, got " + units);
        }
        this.cell = cell;
        this.units = units;
        this.returnSequences = returnSequences;
        this.goBackwards = goBackwards;
        this.returnState = returnState;
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

    /**
     * Whether the final states are output after the output.
     *
     * @return true with {@code return_state}
     */
    public boolean returnState() {
        return returnState;
    }

    /**
     * How many state tensors the cell has: 2 for LSTM ({@code h, c}), else 1.
     *
     * @return the state count
     */
    public int stateCount() {
        return cell == RecurrentCell.LSTM ? 2 : 1;
    }

    /**
     * Keras' {@code zero_output_for_mask}: masked steps of the output sequence are zeros instead of the previous
     * output. {@code Bidirectional} sets it on its copies when they return sequences, as Keras does.
     *
     * @param zero whether masked steps output zeros
     */
    void zeroOutputForMask(boolean zero) {
        this.zeroOutputForMask = zero;
    }

    /**
     * With {@code goBackwards}: output the sequence in the input's time order rather than the order processed, as
     * {@code Bidirectional} flips its backward copy's output back.
     *
     * @param timeOrder whether the output is in time order
     */
    void outputInTimeOrder(boolean timeOrder) {
        this.outputInTimeOrder = timeOrder;
    }

    /**
     * A fresh layer of the same kind and configuration (new weights), as Keras' Bidirectional makes its copies from
     * the wrapped layer's config.
     *
     * @param name the copy's name
     * @param backwards the copy's {@code goBackwards}
     * @return the copy
     */
    Recurrent twin(String name, boolean backwards) {
        return switch (cell) {
            case SIMPLE -> new SimpleRNN(units, returnSequences, backwards, returnState, name);
            case LSTM -> new LSTM(units, returnSequences, backwards, returnState, name);
            case GRU -> new GRU(units, returnSequences, backwards, returnState, name);
        };
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        return outputShapes(inputShapes).get(0);
    }

    @Override
    public List<Shape> outputShapes(List<Shape> inputShapes) {
        if (inputShapes.isEmpty()) {
            throw new IllegalArgumentException(typeName() + " expects an input, got none");
        }
        Shape in = inputShapes.get(0);
        if (in.rank() != 2) {
            throw new IllegalArgumentException(typeName() + " expects input of rank 3 (batch, steps, features), got "
                    + "shape " + withBatch(in));
        }
        int states = inputShapes.size() - 1;
        if (states != 0 && states != stateCount()) {
            throw new IllegalArgumentException(typeName() + " takes the input and " + stateCount()
                    + " initial state" + (stateCount() == 1 ? "" : "s") + ", got " + states + " initial state"
                    + (states == 1 ? "" : "s"));
        }
        for (int i = 1; i < inputShapes.size(); i++) {
            if (!inputShapes.get(i).equals(Shape.of(units))) {
                throw new IllegalArgumentException(typeName() + "'s initial state " + (i - 1) + " must be (None, "
                        + units + "), got " + withBatch(inputShapes.get(i)));
            }
        }
        Shape out = returnSequences ? Shape.of(in.dim(0), units) : Shape.of(units);
        if (!returnState) {
            return List.of(out);
        }
        return stateCount() == 2 ? List.of(out, Shape.of(units), Shape.of(units)) : List.of(out, Shape.of(units));
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
        return callAll(g, inputs, ctx).get(0);
    }

    @Override
    protected List<Node> callAll(Graph g, List<Node> inputs, CallContext ctx) {
        Node x = inputs.get(0);
        Node mask = g.maskOf(x);
        Node init = null;
        if (inputs.size() > 1) {
            init = inputs.size() == 2 ? inputs.get(1) : g.concat(1, inputs.subList(1, inputs.size()));
        }
        RecurrentAttrs attrs = new RecurrentAttrs(cell, units, returnSequences, goBackwards, true, returnState,
                mask != null, init != null, zeroOutputForMask && returnSequences,
                outputInTimeOrder && returnSequences && goBackwards);
        Node y = g.recurrentSequence(attrs, x, g.variable(kernel), g.variable(recurrentKernel), g.variable(bias),
                mask, init);
        if (!returnState) {
            if (mask != null && returnSequences) {
                g.setMask(y, mask);
            }
            return List.of(y);
        }
        int width = returnSequences ? x.shape().dim(1) * units : units;
        Node out = g.slice(y, 1, 0, width);
        if (returnSequences) {
            out = g.reshape(out, Shape.of(x.shape().dim(0), x.shape().dim(1), units));
            if (mask != null) {
                g.setMask(out, mask);
            }
        }
        List<Node> outs = new ArrayList<>(3);
        outs.add(out);
        for (int i = 0; i < stateCount(); i++) {
            outs.add(g.slice(y, 1, width + i * units, units));
        }
        return outs;
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
        // LSTM's bias starts with ones over the forget gate: Keras records that as unit_forget_bias with a zeros
        // bias_initializer (below), not as an initializer of its own.
        c.put("bias_initializer", cell == RecurrentCell.LSTM ? Initializer.zeros() : biasInitializer);
        if (cell == RecurrentCell.LSTM) {
            c.put("unit_forget_bias", true);
        }
        if (cell == RecurrentCell.GRU) {
            c.put("reset_after", true);
        }
        c.put("dropout", 0f);
        c.put("recurrent_dropout", 0f);
        c.put("return_sequences", returnSequences);
        c.put("return_state", returnState);
        c.put("go_backwards", goBackwards);
        c.put("stateful", false);
        c.put("unroll", false);
        return c;
    }
}

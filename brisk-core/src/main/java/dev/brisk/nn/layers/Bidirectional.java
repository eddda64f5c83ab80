package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import java.util.ArrayList;
import java.util.List;

/**
 * Keras' {@code Bidirectional} wrapper of a recurrent layer: two fresh copies of it, {@code forward_<name>} and
 * {@code backward_<name>} (the latter with {@code goBackwards} flipped), whose outputs are merged, or, with
 * {@link MergeMode#NONE} (Keras' {@code merge_mode=None}), returned as two outputs. As in Keras: the
 * backward copy's output sequence is put back in time order before the merge; with {@code returnSequences} both
 * copies output zeros at masked steps ({@code zero_output_for_mask}) and the merged sequence keeps the input's
 * mask; initial states, when given, are the forward copy's then the backward copy's; with {@code returnState} the
 * outputs are the merged output (with {@code NONE}: the forward output, then the backward one), then the forward
 * states, then the backward states. The weights are the copies', named {@code forward_lstm/kernel} and so on.
 */
public final class Bidirectional extends Layer {
    /** How the two directions' outputs are combined (Keras' {@code merge_mode}). */
    public enum MergeMode {
        /** Joined along the last axis, forward first (Keras' default). */
        CONCAT,
        /** Added. */
        SUM,
        /** Multiplied. */
        MUL,
        /** Averaged. */
        AVE,
        /**
         * Not merged (Keras' {@code merge_mode=None}): the forward and the backward output are two outputs, taken
         * with {@link Layer#applyAll}; with {@code returnSequences} both keep the input's mask.
         */
        NONE
    }

    private final Recurrent forward;
    private final Recurrent backward;
    private final MergeMode mergeMode;

    /**
     * Wraps {@code layer}, which is used as a template only (its copies get their own weights, as in Keras).
     *
     * @param layer the recurrent layer
     * @param mergeMode how the directions are combined
     * @param name the layer's name, or null for an automatic one
     */
    public Bidirectional(Recurrent layer, MergeMode mergeMode, String name) {
        super(name);
        if (mergeMode == null) {
            throw new IllegalArgumentException("Bidirectional needs a merge mode (CONCAT, SUM, MUL, AVE, or NONE"
                    + " for the two directions as two outputs)");
        }
        this.mergeMode = mergeMode;
        this.forward = track(layer.twin("forward_" + layer.name(), layer.goBackwards()));
        this.backward = track(layer.twin("backward_" + layer.name(), !layer.goBackwards()));
        boolean sequences = layer.returnSequences();
        forward.zeroOutputForMask(sequences);
        backward.zeroOutputForMask(sequences);
        backward.outputInTimeOrder(true);
        if (layer.goBackwards()) {
            forward.outputInTimeOrder(true);
        }
    }

    /**
     * The forward copy.
     *
     * @return the layer reading the sequence in the wrapped layer's direction
     */
    public Recurrent forwardLayer() {
        return forward;
    }

    /**
     * The backward copy.
     *
     * @return the layer reading the sequence in the other direction
     */
    public Recurrent backwardLayer() {
        return backward;
    }

    /**
     * The merge mode.
     *
     * @return how the directions are combined
     */
    public MergeMode mergeMode() {
        return mergeMode;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        return outputShapes(inputShapes).get(0);
    }

    @Override
    public List<Shape> outputShapes(List<Shape> inputShapes) {
        int states = forward.stateCount();
        if (inputShapes.size() != 1 && inputShapes.size() != 1 + 2 * states) {
            throw new IllegalArgumentException("Bidirectional takes the input and " + 2 * states
                    + " initial states (the forward layer's, then the backward layer's), got "
                    + (inputShapes.size() - 1));
        }
        List<Shape> f = forward.outputShapes(forwardInputs(inputShapes));
        List<Shape> b = backward.outputShapes(backwardInputs(inputShapes));
        Shape y = f.get(0);
        if (mergeMode == MergeMode.CONCAT) {
            y = y.withDim(y.rank() - 1, 2 * y.dim(y.rank() - 1));
        }
        List<Shape> out = new ArrayList<>();
        out.add(y);
        if (mergeMode == MergeMode.NONE) {
            out.add(b.get(0));
        }
        out.addAll(f.subList(1, f.size()));
        out.addAll(b.subList(1, b.size()));
        return List.copyOf(out);
    }

    private <T> List<T> forwardInputs(List<T> inputs) {
        if (inputs.size() == 1) {
            return inputs;
        }
        List<T> out = new ArrayList<>();
        out.add(inputs.get(0));
        out.addAll(inputs.subList(1, 1 + forward.stateCount()));
        return out;
    }

    private <T> List<T> backwardInputs(List<T> inputs) {
        if (inputs.size() == 1) {
            return inputs;
        }
        List<T> out = new ArrayList<>();
        out.add(inputs.get(0));
        out.addAll(inputs.subList(1 + forward.stateCount(), inputs.size()));
        return out;
    }

    @Override
    protected void build(List<Shape> inputShapes) {
        buildSublayer(forward, forwardInputs(inputShapes));
        buildSublayer(backward, backwardInputs(inputShapes));
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        if (mergeMode == MergeMode.NONE) {
            // One output asked for where the layer has two: taking the forward one alone would drop half the model.
            throw new IllegalArgumentException("layer '" + name() + "' (Bidirectional) with merge mode NONE has two"
                    + " outputs, the forward and the backward direction's: apply it with applyAll in a functional"
                    + " model, or merge them (CONCAT, SUM, MUL, AVE)");
        }
        return callAll(g, inputs, ctx).get(0);
    }

    @Override
    protected List<Node> callAll(Graph g, List<Node> inputs, CallContext ctx) {
        List<Node> f = forward.invokeAll(g, forwardInputs(inputs), ctx);
        List<Node> b = backward.invokeAll(g, backwardInputs(inputs), ctx);
        Node yf = f.get(0);
        Node yb = b.get(0);
        Node y = switch (mergeMode) {
            case CONCAT -> g.concat(yf.shape().rank() - 1, List.of(yf, yb));
            case SUM -> g.add(yf, yb);
            case MUL -> g.mul(yf, yb);
            case AVE -> g.scale(g.add(yf, yb), 0.5f);
            case NONE -> yf;
        };
        Node mask = g.maskOf(inputs.get(0));
        if (mask != null && forward.returnSequences()) {
            g.setMask(y, mask);
            if (mergeMode == MergeMode.NONE) {
                g.setMask(yb, mask);
            }
        }
        List<Node> out = new ArrayList<>();
        out.add(y);
        if (mergeMode == MergeMode.NONE) {
            out.add(yb);
        }
        out.addAll(f.subList(1, f.size()));
        out.addAll(b.subList(1, b.size()));
        return List.copyOf(out);
    }
}

package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import java.util.List;

/**
 * The shared rule of Keras' elementwise merge layers (Multiply, Subtract, Average, Maximum, Minimum): inputs whose
 * shapes broadcast as Keras' do ({@link MergeShapes}), combined element by element into one output.
 */
abstract class ElementwiseMerge extends Layer {
    private final int minInputs;
    private final int maxInputs;

    ElementwiseMerge(String name, int minInputs, int maxInputs) {
        super(name);
        this.minInputs = minInputs;
        this.maxInputs = maxInputs;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        int n = inputShapes.size();
        if (n < minInputs || n > maxInputs) {
            throw new IllegalArgumentException(typeName() + " needs "
                    + (minInputs == maxInputs ? "exactly " + minInputs : "at least " + minInputs)
                    + " inputs, got " + n);
        }
        return MergeShapes.output(typeName() + " (" + name() + ")", inputShapes);
    }

    @Override
    protected final Node call(Graph g, List<Node> inputs, CallContext ctx) {
        List<Node> aligned = MergeShapes.aligned(g, inputs);
        Node result = aligned.get(0);
        for (int i = 1; i < aligned.size(); i++) {
            result = combine(g, result, aligned.get(i));
        }
        return finish(g, result, inputs.size());
    }

    /** Combines the running result with the next input. */
    abstract Node combine(Graph g, Node result, Node next);

    /** The output from the combination of all {@code count} inputs (the combination itself unless overridden). */
    Node finish(Graph g, Node combined, int count) {
        return combined;
    }
}

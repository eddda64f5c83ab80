package dev.brisk.nn;

import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import java.util.List;

/** The entry point of a model: declares the per-sample shape of one input. */
public final class InputLayer extends Layer {
    private final Shape shape;
    private final SymbolicTensor output;

    /**
     * An input of per-sample {@code shape} named {@code name}.
     *
     * @param shape the per-sample shape
     * @param name the name, or null for an automatic one
     */
    public InputLayer(Shape shape, String name) {
        super(name);
        this.shape = shape;
        this.output = new SymbolicTensor(this, List.of(), shape);
        ensureBuilt(List.of());
    }

    /**
     * The per-sample shape of the input.
     *
     * @return the shape without the batch axis
     */
    public Shape shape() {
        return shape;
    }

    /**
     * The symbolic tensor to apply further layers to.
     *
     * @return the input's symbolic tensor
     */
    public SymbolicTensor output() {
        return output;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        return shape;
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        return inputs.get(0);
    }
}

package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;

/**
 * The position of every step of a sequence: input {@code (batch, steps, ..)} of any element type, output the INT32
 * ids {@code 0 .. steps-1} for every sample, {@code (batch, steps)}. An {@link Embedding} over these ids is a learned
 * positional embedding, added to the token embedding as Keras' examples do it ({@code Embedding(maxlen, dim)} applied
 * to {@code ops.arange(maxlen)}):
 *
 * <pre>{@code
 * SymbolicTensor tokens = Layers.embedding(vocabulary, 128).apply(ids);
 * SymbolicTensor positions = Layers.embedding(steps, 128).apply(Layers.positions().apply(ids));
 * SymbolicTensor x = Layers.add().apply(tokens, positions);
 * }</pre>
 *
 * <p>The ids are a constant of the graph, no weight and no gradient; the embedding's gradient adds up over the batch.
 */
public final class Positions extends Layer {
    /** The last constant made, reused while the batch size stays (eager steps would otherwise make one each). */
    private volatile Tensor last;

    /**
     * A layer that gives each step its position.
     *
     * @param name the layer's name, or null for an automatic one
     */
    public Positions(String name) {
        super(name);
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape in = single(inputShapes);
        if (in.rank() < 1) {
            throw new IllegalArgumentException("Positions expects sequences (batch, steps, ..), got shape "
                    + withBatch(in));
        }
        return Shape.of(in.dim(0));
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Shape s = inputs.get(0).shape();
        int batch = s.dim(0);
        int steps = s.dim(1);
        Tensor ids = last;
        if (ids == null || !ids.shape().equals(Shape.of(batch, steps))) {
            int[] values = new int[batch * steps];
            for (int i = 0; i < values.length; i++) {
                values[i] = i % steps;
            }
            ids = Tensor.ofInts(values, batch, steps);
            last = ids;
        }
        return g.constant(ids);
    }
}

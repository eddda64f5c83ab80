package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import java.util.Arrays;
import java.util.List;

/**
 * Keras' {@code Permute}: reorders the sample axes by {@code dims}, a permutation of 1..rank (the batch axis 0 stays
 * first); {@code dims = {2, 1}} swaps the two axes of a sequence.
 */
public final class Permute extends Layer {
    private final int[] dims;

    /**
     * A permutation of the sample axes.
     *
     * @param dims the new order of the sample axes, 1-based
     * @param name the layer's name, or null for an automatic one
     */
    public Permute(int[] dims, String name) {
        super(name);
        this.dims = dims.clone();
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape in = single(inputShapes);
        int[] sorted = dims.clone();
        Arrays.sort(sorted);
        boolean permutation = sorted.length == in.rank();
        for (int i = 0; permutation && i < sorted.length; i++) {
            permutation = sorted[i] == i + 1;
        }
        if (!permutation) {
            throw new IllegalArgumentException("Permute's dims " + Arrays.toString(dims)
                    + " are not a permutation of 1.." + in.rank() + " for input " + withBatch(in));
        }
        int[] out = new int[dims.length];
        for (int i = 0; i < dims.length; i++) {
            out[i] = in.dim(dims[i] - 1);
        }
        return Shape.of(out);
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        int[] perm = new int[dims.length + 1];
        for (int i = 0; i < dims.length; i++) {
            perm[i + 1] = dims[i];
        }
        return g.permute(inputs.get(0), perm);
    }

    /**
     * The permutation.
     *
     * @return a copy of the 1-based order of the sample axes
     */
    public int[] dims() {
        return dims.clone();
    }

    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("dims", java.util.Arrays.stream(dims).boxed().toList());
        return c;
    }
}

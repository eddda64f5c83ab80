package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import java.util.List;

/** Reshapes each sample to {@code targetShape}; one dimension may be -1 (inferred). */
public final class Reshape extends Layer {
    private final int[] target;

    /**
     * A layer that reshapes each sample to {@code targetShape}.
     *
     * @param targetShape the per-sample shape; one dimension may be -1, inferred from the others
     * @param name the layer's name, or null for an automatic one
     */
    public Reshape(int[] targetShape, String name) {
        super(name);
        this.target = targetShape.clone();
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        Shape in = requireSizes(single(inputShapes));
        int[] d = target.clone();
        int unknown = -1;
        int known = 1;
        for (int i = 0; i < d.length; i++) {
            if (d[i] == -1) {
                if (unknown >= 0) {
                    throw new IllegalArgumentException("only one dimension of the target shape may be -1");
                }
                unknown = i;
            } else {
                known *= d[i];
            }
        }
        if (unknown >= 0 && known > 0 && in.size() % known == 0) {
            d[unknown] = in.size() / known;
        }
        Shape out = Shape.of(d);
        if (unknown >= 0 && d[unknown] == -1 || out.size() != in.size()) {
            throw new IllegalArgumentException("cannot reshape samples of shape " + withBatch(in) + " ("
                    + in.size() + " values) to " + java.util.Arrays.toString(target));
        }
        return out;
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        Node x = inputs.get(0);
        Shape perSample = outputShape(List.of(x.shape().dropFirst()));
        return g.reshape(x, perSample.prepend(x.shape().dim(0)));
    }

    /** Keras' {@code get_config()} of this layer, under Keras 3's argument names. */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        java.util.List<Integer> shape = new java.util.ArrayList<>();
        for (int d : target) {
            shape.add(d);
        }
        c.put("target_shape", shape);
        return c;
    }
}

package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.Activation;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import java.util.List;

/** Keras' {@code ELU} layer: {@code x} for {@code x > 0}, else {@code alpha * (exp(x) - 1)} (default alpha 1). */
public final class ELU extends Layer {
    private final float alpha;

    /**
     * An exponential linear unit.
     *
     * @param alpha the negative saturation value's magnitude
     * @param name the layer's name, or null for an automatic one
     */
    public ELU(float alpha, String name) {
        super(name);
        this.alpha = alpha;
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        return single(inputShapes);
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        return Activation.elu(g, inputs.get(0), alpha);
    }

    /**
     * The slope parameter.
     *
     * @return alpha
     */
    public float alpha() {
        return alpha;
    }

    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("alpha", alpha);
        return c;
    }
}

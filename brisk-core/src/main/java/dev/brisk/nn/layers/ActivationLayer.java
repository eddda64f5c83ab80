package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.nn.Activation;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import java.util.List;

/** Keras' Activation layer: applies an activation function. */
public final class ActivationLayer extends Layer {
    private final Activation activation;

    /**
     * A layer that applies {@code activation} elementwise.
     *
     * @param activation the activation
     * @param name the layer's name, or null for an automatic one
     */
    public ActivationLayer(Activation activation, String name) {
        super(name);
        this.activation = activation;
    }

    @Override
    public String typeName() {
        return "Activation";
    }

    @Override
    public Shape outputShape(List<Shape> inputShapes) {
        return single(inputShapes);
    }

    /** Each step alone: the input's padding mask stays with the output, as Keras' {@code supports_masking}. */
    @Override
    protected boolean passesMask() {
        return true;
    }

    @Override
    protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
        return activation.apply(g, inputs.get(0));
    }

    @Override
    public Activation outputActivation() {
        return activation;
    }

    /** Keras' {@code get_config()} of this layer, under Keras 3's argument names. */
    @Override
    public java.util.Map<String, Object> kerasConfig() {
        java.util.Map<String, Object> c = super.kerasConfig();
        c.put("activation", activation.kerasName());
        return c;
    }
}

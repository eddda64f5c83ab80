package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;

/** Keras' {@code AveragePooling1D}: the mean of each window of steps, per channel. */
public final class AveragePooling1D extends Pooling1D {
    /**
     * Average pooling over windows of {@code poolSize} steps.
     *
     * @param poolSize the window length
     * @param stride the step between windows (Keras' default: the pool size)
     * @param padding VALID or SAME
     * @param name the layer's name, or null for an automatic one
     * @throws IllegalArgumentException if a size is not positive or the padding is CAUSAL
     */
    public AveragePooling1D(int poolSize, int stride, Padding padding, String name) {
        super(poolSize, stride, padding, name);
    }

    @Override
    Node pool(Graph g, Node image) {
        return g.avgPool(image, attrs);
    }
}

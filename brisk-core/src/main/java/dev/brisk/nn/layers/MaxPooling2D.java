package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;

/** Max pooling over NHWC images (strides default to the pool size, as in Keras). */
public final class MaxPooling2D extends Pooling2D {
    /** Max pooling over {@code poolH x poolW} windows with the given strides and padding. */
    public MaxPooling2D(int poolH, int poolW, int strideH, int strideW, Padding padding, String name) {
        super(poolH, poolW, strideH, strideW, padding, name);
    }

    @Override
    Node pool(Graph g, Node x) {
        return g.maxPool(x, attrs);
    }
}

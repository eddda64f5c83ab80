package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;

/** Max pooling over NHWC images (strides default to the pool size, as in Keras). */
public final class MaxPooling2D extends Pooling2D {
    /**
     * Max pooling over {@code poolH x poolW} windows with the given strides and padding.
     *
     * @param poolH window height
     * @param poolW window width
     * @param strideH vertical step between windows
     * @param strideW horizontal step between windows
     * @param padding "valid" (windows inside the image) or "same" (output size {@code ceil(input / stride)})
     * @param name the layer's name, or null for an automatic one
     */
    public MaxPooling2D(int poolH, int poolW, int strideH, int strideW, Padding padding, String name) {
        super(poolH, poolW, strideH, strideW, padding, name);
    }

    @Override
    Node pool(Graph g, Node x) {
        return g.maxPool(x, attrs);
    }
}

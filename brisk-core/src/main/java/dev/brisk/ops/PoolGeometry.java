package dev.brisk.ops;

import dev.brisk.tensor.Shape;

/**
 * The geometry of one 2-D pooling, NHWC: window {@code poolH x poolW}, strides, the padding before the first row and
 * column, and the output size. Max pooling ignores padded cells; average pooling divides by the number of unpadded
 * cells in the window (Keras' semantics).
 *
 * @param batch samples in the batch
 * @param height input height
 * @param width input width
 * @param channels channels, pooled independently
 * @param poolH window height
 * @param poolW window width
 * @param strideH vertical stride
 * @param strideW horizontal stride
 * @param padTop padded rows before the first input row
 * @param padLeft padded columns before the first input column
 * @param outH output height
 * @param outW output width
 */
public record PoolGeometry(int batch, int height, int width, int channels,
                           int poolH, int poolW, int strideH, int strideW, int padTop, int padLeft,
                           int outH, int outW) {

    /**
     * The geometry of pooling an input of shape {@code x}.
     *
     * @param x the input shape, NHWC
     * @param a the window, strides and padding
     * @return the geometry
     */
    public static PoolGeometry of(Shape x, PoolAttrs a) {
        int[] h = ShapeInference.outAndPad(x.dim(1), a.poolH(), a.strideH(), a.same());
        int[] w = ShapeInference.outAndPad(x.dim(2), a.poolW(), a.strideW(), a.same());
        return new PoolGeometry(x.dim(0), x.dim(1), x.dim(2), x.dim(3), a.poolH(), a.poolW(), a.strideH(),
                a.strideW(), h[1], w[1], h[0], w[0]);
    }
}

package dev.brisk.ops;

import dev.brisk.tensor.Shape;

/**
 * The geometry of one 2-D convolution: NHWC input {@code [batch, height, width, channels]}, kernel
 * {@code [kernelH, kernelW, channels, outChannels]} (Keras' layout), NHWC output {@code [batch, outH, outW,
 * outChannels]}, with the strides and the padding before the first row and column. Kernels receive it whole so that
 * a convolution's dozen sizes travel as one value.
 *
 * @param batch samples in the batch
 * @param height input height
 * @param width input width
 * @param channels input channels
 * @param kernelH kernel height
 * @param kernelW kernel width
 * @param outChannels output channels (filters)
 * @param strideH vertical stride
 * @param strideW horizontal stride
 * @param padTop padded rows before the first input row
 * @param padLeft padded columns before the first input column
 * @param outH output height
 * @param outW output width
 */
public record ConvGeometry(int batch, int height, int width, int channels,
                           int kernelH, int kernelW, int outChannels,
                           int strideH, int strideW, int padTop, int padLeft,
                           int outH, int outW) {

    /**
     * The geometry of a convolution of an input of shape {@code x} by a kernel of shape {@code w}.
     *
     * @param x the input shape, NHWC
     * @param w the kernel shape, {@code [kernelH, kernelW, channels, outChannels]}
     * @param a the strides and padding
     * @return the geometry
     */
    public static ConvGeometry of(Shape x, Shape w, ConvAttrs a) {
        int[] h = ShapeInference.outAndPad(x.dim(1), w.dim(0), a.strideH(), a.same());
        int[] wd = ShapeInference.outAndPad(x.dim(2), w.dim(1), a.strideW(), a.same());
        return new ConvGeometry(x.dim(0), x.dim(1), x.dim(2), x.dim(3), w.dim(0), w.dim(1), w.dim(3),
                a.strideH(), a.strideW(), h[1], wd[1], h[0], wd[0]);
    }
}

package dev.brisk.nn.layers;

import dev.brisk.nn.Layer;
import dev.brisk.tensor.Shape;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The window of a 2-D convolution layer (Conv2D, DepthwiseConv2D, SeparableConv2D, Conv2DTranspose): its kernel
 * size, strides, dilation rate and padding, checked in one place and written under Keras' names, so the layers
 * cannot drift apart in what they accept or record.
 *
 * @param kernelH kernel height
 * @param kernelW kernel width
 * @param strideH vertical step
 * @param strideW horizontal step
 * @param dilationH vertical spacing of the taps
 * @param dilationW horizontal spacing of the taps
 * @param padding VALID or SAME
 */
record ConvWindow(int kernelH, int kernelW, int strideH, int strideW, int dilationH, int dilationW, Padding padding) {

    /**
     * A window checked as Keras checks it: positive sizes, not both a stride and a dilation rate above 1, and no
     * causal padding (which only Conv1D has).
     *
     * @param layer Keras' class name of the layer, for the errors
     * @throws IllegalArgumentException naming the layer and the offending values
     */
    static ConvWindow checked(String layer, int kernelH, int kernelW, int strideH, int strideW, int dilationH,
            int dilationW, Padding padding) {
        if (kernelH < 1 || kernelW < 1 || strideH < 1 || strideW < 1 || dilationH < 1 || dilationW < 1) {
            throw new IllegalArgumentException(layer + " needs a positive kernel size, strides and dilation rate, got "
                    + "kernel " + kernelH + "x" + kernelW + ", strides (" + strideH + ", " + strideW
                    + "), dilation rate (" + dilationH + ", " + dilationW + ")");
        }
        ConvWindow w = new ConvWindow(kernelH, kernelW, strideH, strideW, dilationH, dilationW, padding);
        if (w.dilated() && (strideH > 1 || strideW > 1)) {
            throw new IllegalArgumentException(layer + ": strides > 1 are not supported with dilation_rate > 1 (got "
                    + "strides (" + strideH + ", " + strideW + "), dilation rate (" + dilationH + ", " + dilationW
                    + ")), as in Keras");
        }
        if (padding == Padding.CAUSAL) {
            throw new IllegalArgumentException(layer + " takes padding VALID or SAME; CAUSAL is for Conv1D");
        }
        return w;
    }

    /** Whether the padding is SAME (output size {@code ceil(input / stride)}). */
    boolean same() {
        return padding == Padding.SAME;
    }

    /** Whether a dilation rate is above 1. */
    boolean dilated() {
        return dilationH > 1 || dilationW > 1;
    }

    /** The number of kernel taps, {@code kernelH * kernelW}: the receptive field in Keras' fans. */
    int taps() {
        return kernelH * kernelW;
    }

    /** Keras' {@code dilation_rate} entry. */
    List<Integer> dilationRate() {
        return List.of(dilationH, dilationW);
    }

    /** Writes Keras' {@code kernel_size}, {@code strides} and {@code padding} entries, in that order. */
    void putSizes(Map<String, Object> config) {
        config.put("kernel_size", List.of(kernelH, kernelW));
        config.put("strides", List.of(strideH, strideW));
        config.put("padding", padding.name().toLowerCase(Locale.ROOT));
    }

    /**
     * The output shape of a depthwise window (DepthwiseConv2D, and SeparableConv2D's first stage) over an
     * {@code (h, w, c)} input, or an error naming the layer and the input.
     *
     * @param layer the layer, named in errors
     * @param in the input shape without the batch
     * @param channels the output's channels
     * @return {@code (outH, outW, channels)}
     */
    Shape depthwiseOut(Layer layer, Shape in, int channels) {
        if (in.rank() != 3) {
            throw new IllegalArgumentException(layer.kerasClassName() + " expects input of rank 4 (batch, height, "
                    + "width, channels), got shape " + Layer.withBatch(in));
        }
        int h = DepthwiseConvolution.geometry(in.dim(0), kernelH, strideH, dilationH, same())[0];
        int w = DepthwiseConvolution.geometry(in.dim(1), kernelW, strideW, dilationW, same())[0];
        if (h <= 0 || w <= 0) {
            throw new IllegalArgumentException(layer.kerasClassName() + " '" + layer.name() + "': kernel " + kernelH
                    + "x" + kernelW + " does not fit input " + Layer.withBatch(in) + " with padding 'valid'");
        }
        return Shape.of(h, w, channels);
    }
}

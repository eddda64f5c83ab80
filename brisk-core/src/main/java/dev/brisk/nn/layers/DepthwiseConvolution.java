package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;
import dev.brisk.ops.ShapeInference;
import dev.brisk.tensor.Shape;

/**
 * A depthwise convolution (each input channel convolved with its own {@code depthMultiplier} filters, Keras' and
 * TensorFlow's output channel {@code c * depthMultiplier + m}) composed of ops that have kernels and gradients: for
 * each of the {@code kh kw} taps, the window of input it reads is sliced out and multiplied per channel by that tap's
 * weights, and the products are summed. A convolution's im2col + gemm would spend {@code channels} times the
 * arithmetic on a block-diagonal kernel; these are {@code kh kw} memory-bound passes over the output instead. With a
 * stride the padded input is first viewed as its {@code sh x sw} phases (a reshape: no copy), so that each tap's
 * strided window is a contiguous slice of one phase: output row {@code o} reads padded row
 * {@code o sh + i dh = (o + (i dh) / sh) sh + (i dh) % sh}.
 */
final class DepthwiseConvolution {
    private DepthwiseConvolution() {
    }

    /**
     * The output length and the padding before and after one axis: TensorFlow's rule over the window's span
     * {@code (k - 1) d + 1} ("same": the smaller half before).
     *
     * @return {out, before, after}
     */
    static int[] geometry(int size, int kernel, int stride, int dilation, boolean same) {
        int span = (kernel - 1) * dilation + 1;
        int[] outAndPad = ShapeInference.outAndPad(size, span, stride, same);
        int out = outAndPad[0];
        int before = outAndPad[1];
        int after = Math.max((out - 1) * stride + span - size - before, 0);
        return new int[] {out, before, after};
    }

    /**
     * The depthwise convolution of NHWC {@code x} by {@code kernel [kh, kw, channels, depthMultiplier]} with the
     * strides, dilation rate and padding of {@code geometry}.
     *
     * @return {@code [batch, outH, outW, channels depthMultiplier]}
     */
    static Node apply(Graph g, Node x, Node kernel, ConvWindow geometry) {
        int sh = geometry.strideH();
        int sw = geometry.strideW();
        int dh = geometry.dilationH();
        int dw = geometry.dilationW();
        boolean same = geometry.same();
        Shape s = x.shape();
        Shape k = kernel.shape();
        int batch = s.dim(0);
        int channels = s.dim(3);
        int kh = k.dim(0);
        int kw = k.dim(1);
        int multiplier = k.dim(3);
        int[] h = geometry(s.dim(1), kh, sh, dh, same);
        int[] w = geometry(s.dim(2), kw, sw, dw, same);
        // Whole phases: the padded size rounded up to a multiple of the stride (the extra rows are never read).
        int paddedH = roundUp(s.dim(1) + h[1] + h[2], sh);
        int paddedW = roundUp(s.dim(2) + w[1] + w[2], sw);
        Node padded = ZeroPadding2D.pad(g, ZeroPadding2D.pad(g, x, 2, w[1], paddedW - s.dim(2) - w[1]), 1, h[1],
                paddedH - s.dim(1) - h[1]);
        boolean strided = sh > 1 || sw > 1;
        Node grid = strided
                ? g.reshape(padded, Shape.of(batch, paddedH / sh, sh, paddedW / sw, sw, channels)) : padded;
        Node taps = g.reshape(kernel, Shape.of(kh * kw, channels * multiplier));
        Shape tapShape = multiplier == 1 ? Shape.of(channels) : Shape.of(channels, multiplier);
        Shape windowShape = multiplier == 1 ? Shape.of(batch, h[0], w[0], channels)
                : Shape.of(batch, h[0], w[0], channels, 1);
        Node sum = null;
        for (int i = 0; i < kh; i++) {
            for (int j = 0; j < kw; j++) {
                int row = i * dh;
                int col = j * dw;
                Node window = strided
                        ? slice(g, slice(g, slice(g, slice(g, grid, 2, row % sh, 1), 4, col % sw, 1),
                                1, row / sh, h[0]), 3, col / sw, w[0])
                        : slice(g, slice(g, grid, 1, row, h[0]), 2, col, w[0]);
                Node tap = g.reshape(g.slice(taps, 0, i * kw + j, 1), tapShape);
                Node term = g.mul(g.reshape(window, windowShape), tap);
                sum = sum == null ? term : g.add(sum, term);
            }
        }
        return multiplier == 1 ? sum : g.reshape(sum, Shape.of(batch, h[0], w[0], channels * multiplier));
    }

    private static int roundUp(int n, int multiple) {
        return (n + multiple - 1) / multiple * multiple;
    }

    /** A slice, or {@code x} itself where it would take the whole axis. */
    private static Node slice(Graph g, Node x, int axis, int start, int length) {
        return start == 0 && length == x.shape().dim(axis) ? x : g.slice(x, axis, start, length);
    }
}

package dev.brisk.nn.layers;

import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Shape;
import java.util.function.UnaryOperator;

/**
 * A stride-1 convolution whose kernel taps are {@code dh} rows and {@code dw} columns apart, computed without a
 * dilated kernel by the ordinary convolution kernels (im2col + gemm, bias and activation fused as usual). The padded
 * input is split into its {@code dh x dw} interleaved phases (rows {@code p, p + dh, ..}, likewise columns), which a
 * reshape and a PERMUTE make {@code dh dw} times as many images; one valid convolution runs over all of them and the
 * inverse permutation interleaves the outputs again. Output row {@code o} reads padded rows
 * {@code o, o + dh, .., o + (kh - 1) dh}, all in the phase of {@code o}, which is why this is exact. The padded size is
 * rounded up to whole phases with zeros; the extra outputs that makes are sliced off.
 */
final class DilatedConvolution {
    private DilatedConvolution() {
    }

    /**
     * The padding before and after one axis and the output length: "same" pads as TensorFlow does for stride 1 (the
     * smaller half before) over the window's span {@code (k - 1) d + 1}.
     *
     * @return {before, after, out}
     */
    static int[] pads(int size, int kernel, int dilation, boolean same) {
        int span = (kernel - 1) * dilation + 1;
        int before = same ? (span - 1) / 2 : 0;
        int after = same ? span - 1 - before : 0;
        return new int[] {before, after, size + before + after - span + 1};
    }

    /**
     * The dilated convolution of NHWC {@code x} by {@code kernel [kh, kw, channels, filters]}.
     *
     * @param pads {top, bottom, left, right} zero rows and columns around the input
     * @param epilogue what follows the convolution in the same fused call (bias, activation), given the convolution
     * @return {@code [batch, outH, outW, filters]}
     */
    static Node apply(Graph g, Node x, Node kernel, int dh, int dw, int[] pads, UnaryOperator<Node> epilogue) {
        Shape s = x.shape();
        Shape k = kernel.shape();
        int batch = s.dim(0);
        int channels = s.dim(3);
        int filters = k.dim(3);
        int paddedH = s.dim(1) + pads[0] + pads[1];
        int paddedW = s.dim(2) + pads[2] + pads[3];
        int outH = paddedH - (k.dim(0) - 1) * dh;
        int outW = paddedW - (k.dim(1) - 1) * dw;
        int extraH = (dh - paddedH % dh) % dh;
        int extraW = (dw - paddedW % dw) % dw;
        Node padded = ZeroPadding2D.pad(g, ZeroPadding2D.pad(g, x, 2, pads[2], pads[3] + extraW), 1, pads[0],
                pads[1] + extraH);
        int phaseH = (paddedH + extraH) / dh;
        int phaseW = (paddedW + extraW) / dw;
        Node phases = g.permute(g.reshape(padded, Shape.of(batch, phaseH, dh, phaseW, dw, channels)), 0, 2, 4, 1, 3, 5);
        Node images = g.reshape(phases, Shape.of(batch * dh * dw, phaseH, phaseW, channels));
        Node y = g.fusing(() -> epilogue.apply(g.conv2d(images, kernel, 1, 1, false)));
        int phaseOutH = phaseH - k.dim(0) + 1;
        int phaseOutW = phaseW - k.dim(1) + 1;
        Node back = g.permute(g.reshape(y, Shape.of(batch, dh, dw, phaseOutH, phaseOutW, filters)), 0, 3, 1, 4, 2, 5);
        Node out = g.reshape(back, Shape.of(batch, phaseOutH * dh, phaseOutW * dw, filters));
        if (phaseOutH * dh != outH) {
            out = g.slice(out, 1, 0, outH);
        }
        if (phaseOutW * dw != outW) {
            out = g.slice(out, 2, 0, outW);
        }
        return out;
    }
}

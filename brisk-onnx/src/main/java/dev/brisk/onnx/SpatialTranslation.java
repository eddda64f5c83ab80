package dev.brisk.onnx;

import static dev.brisk.onnx.OnnxGraph.attr;
import static dev.brisk.onnx.OnnxGraph.ints;

import dev.brisk.ops.ConvAttrs;
import dev.brisk.ops.ConvGradAttrs;
import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
import dev.brisk.ops.PoolAttrs;
import dev.brisk.ops.PoolGeometry;
import dev.brisk.onnx.proto.AttributeProto;
import java.util.List;

/**
 * Convolutions and pooling. Brisk's images are NHWC (Keras' channels_last) and its kernels {@code (kh, kw, in, out)};
 * ONNX's Conv and pooling operators take NCHW and {@code (out, in, kh, kw)}. Each op is therefore wrapped in
 * transposes (NHWC to NCHW before, back after; runtimes cancel the pairs between consecutive ops), and the kernel
 * is transposed by a Transpose of the initializer (folded to a constant by runtimes). Padding is written as ONNX's
 * explicit {@code pads}: "same" pads {@code total / 2} before and the rest after, as TensorFlow and Brisk do. A
 * transposed convolution (Keras' Conv2DTranspose, Brisk's CONV2D_GRAD_INPUT outside training) is ConvTranspose.
 */
final class SpatialTranslation {
    private static final int[] TO_NCHW = {0, 3, 1, 2};
    private static final int[] TO_NHWC = {0, 2, 3, 1};
    private static final int[] KERNEL_TO_OIHW = {3, 2, 0, 1};

    private SpatialTranslation() {
    }

    static String conv2d(NodeTranslator t, Node n) {
        OnnxGraph g = t.graph();
        String b = t.base(n);
        ConvAttrs a = n.attrs(ConvAttrs.class);
        ConvGeometry geo = ConvGeometry.of(n.input(0).shape(), n.input(1).shape(), a);
        String x = g.node("Transpose", b + "/nchw", List.of(t.in(n, 0)), ints("perm", TO_NCHW));
        String w = g.node("Transpose", b + "/oihw", List.of(t.in(n, 1)), ints("perm", KERNEL_TO_OIHW));
        long[] pads = pads(geo.padTop(), geo.padLeft(), geo.outH(), geo.outW(), geo.strideH(), geo.strideW(),
                geo.kernelH(), geo.kernelW(), geo.height(), geo.width());
        String y = g.node("Conv", b + "/conv", List.of(x, w),
                ints("kernel_shape", geo.kernelH(), geo.kernelW()),
                ints("strides", geo.strideH(), geo.strideW()),
                padding(t, n, pads, a.same()),
                ints("dilations", 1, 1));
        return g.node("Transpose", b, List.of(y), ints("perm", TO_NHWC));
    }

    /**
     * CONV2D_GRAD_INPUT in an inference graph is Conv2DTranspose: ONNX's ConvTranspose, whose weight
     * {@code (in, out, kh, kw)} is Brisk's {@code (kh, kw, out, in)} under the same transpose as a convolution's
     * kernel. Its output is {@code s (in - 1) + k - padBegin - padEnd + outputPadding}; the forward convolution's
     * padding before is {@code padBegin}, and whatever the output lacks at the end (a kernel smaller than the stride)
     * is {@code outputPadding}, zeros as in Brisk.
     */
    static String convTranspose(NodeTranslator t, Node n) {
        OnnxGraph g = t.graph();
        String b = t.base(n);
        ConvGradAttrs a = n.attrs(ConvGradAttrs.class);
        ConvGeometry geo = ConvGeometry.of(a.resultShape(), n.input(1).shape(), a.conv());
        for (Node v : t.trace().variants(n)) {
            if (!v.attrs(ConvGradAttrs.class).resultShape().dropFirst().equals(a.resultShape().dropFirst())) {
                throw new OnnxExportException(t.trace().describe(n) + ": a transposed convolution over an open axis"
                        + " has no ONNX translation for any length (build the model for one size to export it)");
            }
        }
        String x = g.node("Transpose", b + "/nchw", List.of(t.in(n, 0)), ints("perm", TO_NCHW));
        String w = g.node("Transpose", b + "/iohw", List.of(t.in(n, 1)), ints("perm", KERNEL_TO_OIHW));
        int endH = (geo.outH() - 1) * geo.strideH() + geo.kernelH() - geo.height() - geo.padTop();
        int endW = (geo.outW() - 1) * geo.strideW() + geo.kernelW() - geo.width() - geo.padLeft();
        String y = g.node("ConvTranspose", b + "/convtranspose", List.of(x, w),
                ints("kernel_shape", geo.kernelH(), geo.kernelW()),
                ints("strides", geo.strideH(), geo.strideW()),
                ints("pads", geo.padTop(), geo.padLeft(), Math.max(endH, 0), Math.max(endW, 0)),
                ints("output_padding", Math.max(-endH, 0), Math.max(-endW, 0)),
                ints("dilations", 1, 1));
        return g.node("Transpose", b, List.of(y), ints("perm", TO_NHWC));
    }

    static String pool(NodeTranslator t, Node n) {
        OnnxGraph g = t.graph();
        String b = t.base(n);
        PoolAttrs a = n.attrs(PoolAttrs.class);
        PoolGeometry geo = PoolGeometry.of(n.input(0).shape(), a);
        String x = g.node("Transpose", b + "/nchw", List.of(t.in(n, 0)), ints("perm", TO_NCHW));
        long[] all = pads(geo.padTop(), geo.padLeft(), geo.outH(), geo.outW(), geo.strideH(), geo.strideW(),
                geo.poolH(), geo.poolW(), geo.height(), geo.width());
        var kernel = ints("kernel_shape", geo.poolH(), geo.poolW());
        var strides = ints("strides", geo.strideH(), geo.strideW());
        var pads = padding(t, n, all, a.same());
        String y = n.op() == OpType.MAX_POOL
                ? g.node("MaxPool", b + "/pool", List.of(x), kernel, strides, pads)
                // Brisk's average divides by the cells inside the image, as ONNX's count_include_pad=0 does.
                : g.node("AveragePool", b + "/pool", List.of(x), kernel, strides, pads, attr("count_include_pad", 0L));
        return g.node("Transpose", b, List.of(y), ints("perm", TO_NHWC));
    }

    /** Explicit pads (top, left, bottom, right): what the output needs beyond the input, before and after. */
    private static long[] pads(int top, int left, int outH, int outW, int strideH, int strideW, int kernelH,
                               int kernelW, int height, int width) {
        int bottom = Math.max(0, (outH - 1) * strideH + kernelH - height - top);
        int right = Math.max(0, (outW - 1) * strideW + kernelW - width - left);
        return new long[] {top, left, bottom, right};
    }

    /**
     * The padding attribute: explicit {@code pads} over an image of fixed size; "same" padding over an open axis
     * (whose pads change with its length) as {@code auto_pad=SAME_UPPER}, which pads {@code total / 2} before and the
     * rest after, as TensorFlow and Brisk do, at whatever length runs. "valid" padding is no padding at any length.
     */
    private static AttributeProto padding(NodeTranslator t, Node n, long[] pads, boolean same) {
        SymbolicDim[] in = t.trace().dims(n.input(0));
        boolean open = !in[1].isFixed() || !in[2].isFixed();
        return same && open ? attr("auto_pad", "SAME_UPPER") : ints("pads", pads);
    }
}

package dev.brisk.onnx;

import static dev.brisk.onnx.OnnxGraph.attr;
import static dev.brisk.onnx.OnnxGraph.ints;

import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
import dev.brisk.ops.ReduceAttrs;
import dev.brisk.ops.ReduceFn;
import dev.brisk.ops.UnaryAttrs;
import dev.brisk.ops.UnaryFn;
import java.util.List;

/**
 * A mean over an open axis (GlobalAveragePooling1D over any length): Brisk traces it as a sum and a SCALE by
 * {@code 1 / count}, a factor that changes with the length, so the export divides the sum by the count of the summed
 * elements, read from the sum's input shape at run time. Any other SCALE whose factor changes with a length is
 * refused, naming the layer.
 */
final class MeanScale {
    private MeanScale() {
    }

    /** Whether {@code n} is a SCALE (a product with a constant factor), which may be a mean's division. */
    static boolean isScale(Node n) {
        return n.op() == OpType.UNARY && n.attrs(UnaryAttrs.class).fn() == UnaryFn.SCALE;
    }

    /**
     * Whether {@code n}'s factor differs between the traces, so it needs {@link #translate}.
     *
     * @param trace the traces
     * @param n a node of the first trace
     * @return true when the factor depends on a dynamic size
     */
    static boolean varies(InferenceTrace trace, Node n) {
        if (!isScale(n)) {
            return false;
        }
        float alpha = n.attrs(UnaryAttrs.class).alpha();
        for (Node v : trace.variants(n)) {
            if (Float.floatToRawIntBits(v.attrs(UnaryAttrs.class).alpha()) != Float.floatToRawIntBits(alpha)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The SCALE of a sum by {@code 1 / count} as the sum divided by the count at run time.
     *
     * @param t the translator
     * @param n a SCALE whose factor {@link #varies}
     * @param layer the layer, for errors
     * @return the value's name
     * @throws OnnxExportException when the factor is not one over the count of the summed elements
     */
    static String translate(NodeTranslator t, Node n, String layer) {
        Node sum = n.input(0);
        if (sum.op() != OpType.REDUCE || sum.attrs(ReduceAttrs.class).fn() != ReduceFn.SUM) {
            throw refused(n, layer);
        }
        int[] axes = sum.attrs(ReduceAttrs.class).axes();
        List<Node> scales = t.trace().variants(n);
        List<Node> sums = t.trace().variants(sum);
        for (int i = 0; i < scales.size(); i++) {
            float alpha = scales.get(i).attrs(UnaryAttrs.class).alpha();
            if (alpha != 1f / count(sums.get(i).input(0), axes)) {
                throw refused(n, layer);
            }
        }
        OnnxGraph g = t.graph();
        String b = t.base(n);
        int rank = sum.input(0).shape().rank();
        long[] positive = new long[axes.length];
        for (int i = 0; i < axes.length; i++) {
            positive[i] = NodeTranslator.positiveAxis(axes[i], rank);
        }
        String dims = g.node("Gather", b + "/summed_dims", List.of(
                g.node("Shape", b + "/sum_input_shape", List.of(t.in(sum, 0))), g.int64s(positive)),
                attr("axis", 0L));
        String count = g.node("ReduceProd", b + "/count", List.of(dims), ints("axes", 0L), attr("keepdims", 0L));
        return g.node("Div", b, List.of(t.in(n, 0),
                g.node("Cast", b + "/count_float", List.of(count), attr("to", NodeTranslator.FLOAT))));
    }

    private static int count(Node x, int[] axes) {
        int c = 1;
        for (int a : axes) {
            c *= x.shape().dim(NodeTranslator.positiveAxis(a, x.shape().rank()));
        }
        return c;
    }

    private static OnnxExportException refused(Node n, String layer) {
        return new OnnxExportException(layer + ": op UNARY SCALE multiplies by a factor that depends on the sequence"
                + " length, and is not a mean's 1 / count; the ONNX export cannot write it for any length (build the"
                + " model for one length to export it)");
    }
}

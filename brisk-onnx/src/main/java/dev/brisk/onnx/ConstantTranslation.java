package dev.brisk.onnx;

import static dev.brisk.onnx.OnnxGraph.attr;

import dev.brisk.ops.Node;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.Arrays;
import java.util.List;

/**
 * CONSTANT nodes. A constant of fixed shape is an initializer. One whose shape depends on the batch size or a length
 * is written as what it is made of, which must be the same rule in every trace: one value everywhere (Conv1D's causal
 * zero steps) is that scalar expanded to the shape computed at run time; each position's index along an open axis
 * ({@code Positions}' ids) is a Range over the length; a causal mask's scores (one value where a column is later
 * than its row, another elsewhere) compares two Ranges; the same row for every batch entry (position ids of a fixed
 * length) is that row expanded to the batch. Any other such constant is refused, naming the layer.
 */
final class ConstantTranslation {
    private ConstantTranslation() {
    }

    static String translate(NodeTranslator t, Node n) {
        OnnxGraph g = t.graph();
        String b = t.base(n);
        SymbolicDim[] dims = t.trace().dims(n);
        boolean fixed = true;
        for (SymbolicDim d : dims) {
            fixed &= d.isFixed();
        }
        Tensor value = n.value();
        if (fixed) {
            return g.initializer(b, value);
        }
        List<Node> variants = t.trace().variants(n);
        String layer = t.trace().describe(n);
        if (uniform(variants)) {
            Tensor scalar = Tensor.wrap(new float[] {value.data()[value.offset()]}, 0, Shape.scalar(), value.dtype());
            return g.node("Expand", b, List.of(g.initializer(b + "/value", scalar), t.shapes().shape(dims, layer)));
        }
        for (int axis = 0; axis < dims.length; axis++) {
            if (dims[axis].isProduct() && dims[axis].factor() == 1 && (dims[axis].symbols() & 1) == 0
                    && Integer.bitCount(dims[axis].symbols()) == 1 && positions(variants, axis)) {
                return positions(t, n, dims, axis, layer);
            }
        }
        if (dims.length >= 2 && causal(variants)) {
            return causal(t, n, dims, layer);
        }
        if (rowPerBatchEntry(dims) && sameRows(variants)) {
            Tensor first = Tensor.wrap(value.data(), value.offset(), value.shape().withDim(0, 1), value.dtype());
            return g.node("Expand", b, List.of(g.initializer(b + "/row", first), t.shapes().shape(dims, layer)));
        }
        throw new OnnxExportException(layer + ": a constant of shape " + n.shape() + " depends on the batch size or a"
                + " sequence length and is neither one value, each step's position nor the same row for every batch"
                + " entry; it cannot be exported for any " + (t.trace().hasOpenAxes() ? "length" : "batch size"));
    }

    /** Each position's index along {@code axis}: Range(0, length), shaped to that axis and expanded to the rest. */
    private static String positions(NodeTranslator t, Node n, SymbolicDim[] dims, int axis, String layer) {
        OnnxGraph g = t.graph();
        String b = t.base(n);
        String range = range(t, n, dims[axis], "range", layer);
        long type = n.dtype() == DType.INT32 ? 6L : NodeTranslator.FLOAT; // TensorProto.INT32 or FLOAT
        String cast = g.node("Cast", b + "/ids", List.of(range), attr("to", type));
        long[] column = new long[dims.length];
        Arrays.fill(column, 1);
        column[axis] = -1;
        String shaped = g.node("Reshape", b + "/along_axis", List.of(cast, g.int64s(column)));
        return g.node("Expand", b, List.of(shaped, t.shapes().shape(dims, layer)));
    }

    /**
     * A causal mask's scores (MultiHeadAttention's, with a padding mask as well): over the last two axes, one value
     * where the column is later than the row ({@code i < j}) and another elsewhere, made from the two counts at run
     * time and expanded to the rest.
     */
    private static String causal(NodeTranslator t, Node n, SymbolicDim[] dims, String layer) {
        OnnxGraph g = t.graph();
        String b = t.base(n);
        int rank = dims.length;
        Tensor value = n.value();
        int cols = value.shape().dim(rank - 1);
        String rows = g.node("Unsqueeze", b + "/rows", List.of(range(t, n, dims[rank - 2], "row_index", layer),
                g.int64s(1)));
        String columns = g.node("Unsqueeze", b + "/columns", List.of(range(t, n, dims[rank - 1], "column_index",
                layer), g.int64s(0)));
        String later = g.node("Less", b + "/later", List.of(rows, columns));
        String laterValue = g.initializer(b + "/later_value", scalar(value, 1));
        String otherValue = g.initializer(b + "/other_value", scalar(value, cols)); // row 1, column 0
        String mask = g.node("Where", b + "/mask", List.of(later, laterValue, otherValue));
        return g.node("Expand", b, List.of(mask, t.shapes().shape(dims, layer)));
    }

    /** {@code 0 .. size - 1} as int64, the size computed at run time. */
    private static String range(NodeTranslator t, Node n, SymbolicDim size, String name, String layer) {
        OnnxGraph g = t.graph();
        String b = t.base(n);
        String count = g.node("Squeeze", b + "/" + name + "_count", List.of(t.shapes().size(size, layer),
                g.int64s(0)));
        return g.node("Range", b + "/" + name, List.of(g.int64Scalar(0), count, g.int64Scalar(1)));
    }

    private static Tensor scalar(Tensor value, int i) {
        return Tensor.wrap(new float[] {value.data()[value.offset() + i]}, 0, Shape.scalar(), value.dtype());
    }

    /**
     * Whether, in every trace, the values over the last two axes are one value where the column is later than the row
     * and another elsewhere, the same for every leading index, with at least two rows and two columns.
     */
    private static boolean causal(List<Node> variants) {
        for (Node v : variants) {
            Tensor x = v.value();
            int rank = x.shape().rank();
            int rows = x.shape().dim(rank - 2);
            int cols = x.shape().dim(rank - 1);
            if (rows < 2 || cols < 2) {
                return false;
            }
            int later = raw(x, 1);
            int other = raw(x, cols);
            for (int i = 0; i < x.size(); i++) {
                int row = i / cols % rows;
                int col = i % cols;
                if (raw(x, i) != (col > row ? later : other)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean uniform(List<Node> variants) {
        int bits = raw(variants.get(0).value(), 0);
        for (Node v : variants) {
            Tensor x = v.value();
            for (int i = 0; i < x.size(); i++) {
                if (raw(x, i) != bits) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether every element is its index along {@code axis}, in every trace. */
    private static boolean positions(List<Node> variants, int axis) {
        for (Node v : variants) {
            Tensor x = v.value();
            int[] dims = x.shape().dims();
            int inner = 1;
            for (int i = axis + 1; i < dims.length; i++) {
                inner *= dims[i];
            }
            for (int i = 0; i < x.size(); i++) {
                int index = i / inner % dims[axis];
                boolean same = x.dtype() == DType.INT32 ? raw(x, i) == index : x.get(i) == index;
                if (!same) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether only the first axis is dynamic, and it is the batch itself. */
    private static boolean rowPerBatchEntry(SymbolicDim[] dims) {
        if (!(dims[0].isProduct() && dims[0].symbols() == 1 && dims[0].factor() == 1)) {
            return false;
        }
        for (int i = 1; i < dims.length; i++) {
            if (!dims[i].isFixed()) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameRows(List<Node> variants) {
        for (Node v : variants) {
            Tensor x = v.value();
            int row = x.size() / x.shape().dim(0);
            for (int i = row; i < x.size(); i++) {
                if (raw(x, i) != raw(x, i % row)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static int raw(Tensor x, int i) {
        return Float.floatToRawIntBits(x.get(i));
    }
}

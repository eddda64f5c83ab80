package dev.brisk.onnx;

import static dev.brisk.onnx.OnnxGraph.attr;

import dev.brisk.ops.Node;
import dev.brisk.ops.ShapeAttrs;
import java.util.ArrayList;
import java.util.List;

/**
 * The target shapes of RESHAPE (ONNX's Reshape) and BROADCAST_TO (Expand), written so that they hold at any batch
 * size and length. A size the traces give as fixed is written as it is; a dynamic one is taken from the input where
 * it is the input's size on the same axis (Reshape's {@code 0}, Expand's {@code 1}, which keep the input's size), is
 * Reshape's {@code -1} when it is the only size left, and is otherwise computed at run time ({@link RuntimeShapes}):
 * a Dense layer's {@code [batch * length, features]} back to {@code [batch, length, features]} reads the batch size
 * and leaves the length to {@code -1}.
 */
final class TargetShapes {
    private TargetShapes() {
    }

    /**
     * Reshape's target shape for {@code n}.
     *
     * @param t the translator
     * @param n a RESHAPE
     * @param layer the layer, for errors
     * @return an int64 value
     */
    static String reshape(NodeTranslator t, Node n, String layer) {
        List<int[]> targets = targets(t, n);
        SymbolicDim[] dims = t.trace().dims(n, targets);
        long[] literal = new long[dims.length];
        List<Integer> left = literal(dims, sameAsInput(t, n, targets, 0), 0, literal);
        // One size left to infer: -1. Several: the irregular one (at most one) or the last is -1, the rest computed.
        int inferred = -1;
        for (int i : left) {
            if (dims[i].isIrregular()) {
                inferred = i;
                break;
            }
        }
        if (inferred < 0 && !left.isEmpty()) {
            inferred = left.get(left.size() - 1);
        }
        if (inferred >= 0) {
            literal[inferred] = -1;
            left.remove(Integer.valueOf(inferred));
        }
        return write(t, dims, literal, left, layer);
    }

    /**
     * Expand's target shape for {@code n}.
     *
     * @param t the translator
     * @param n a BROADCAST_TO
     * @param layer the layer, for errors
     * @return an int64 value
     */
    static String expand(NodeTranslator t, Node n, String layer) {
        List<int[]> targets = targets(t, n);
        SymbolicDim[] dims = t.trace().dims(n, targets);
        long[] literal = new long[dims.length];
        // Expand's 1 broadcasts: the output keeps the input's size there.
        List<Integer> left = literal(dims, sameAsInput(t, n, targets, dims.length - n.input(0).shape().rank()), 1,
                literal);
        return write(t, dims, literal, left, layer);
    }

    /**
     * Fills {@code literal} with the fixed sizes, and {@code inputsOwn} where a dynamic size is the input's own;
     * returns the axes left, whose sizes are dynamic and not the input's.
     */
    private static List<Integer> literal(SymbolicDim[] dims, boolean[] fromInput, long inputsOwn, long[] literal) {
        List<Integer> left = new ArrayList<>();
        for (int i = 0; i < dims.length; i++) {
            literal[i] = dims[i].isFixed() ? dims[i].value() : inputsOwn;
            if (!dims[i].isFixed() && !fromInput[i]) {
                left.add(i);
            }
        }
        return left;
    }

    private static List<int[]> targets(NodeTranslator t, Node n) {
        List<int[]> out = new ArrayList<>();
        for (Node v : t.trace().variants(n)) {
            out.add(v.attrs(ShapeAttrs.class).shape().dims());
        }
        return out;
    }

    /** For each target axis, whether it is the input's axis {@code i - offset} in every trace. */
    private static boolean[] sameAsInput(NodeTranslator t, Node n, List<int[]> targets, int offset) {
        List<Node> inputs = t.trace().variants(n.input(0));
        boolean[] same = new boolean[targets.get(0).length];
        for (int i = 0; i < same.length; i++) {
            int k = i - offset;
            same[i] = k >= 0 && k < inputs.get(0).shape().rank();
            for (int v = 0; same[i] && v < targets.size(); v++) {
                same[i] = targets.get(v)[i] == inputs.get(v).shape().dim(k);
            }
        }
        return same;
    }

    /** The literal shape, with the sizes at {@code computed} computed at run time. */
    private static String write(NodeTranslator t, SymbolicDim[] dims, long[] literal, List<Integer> computed,
                                String layer) {
        OnnxGraph g = t.graph();
        if (computed.isEmpty()) {
            return g.int64s(literal);
        }
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < dims.length; i++) {
            parts.add(computed.contains(i) ? t.shapes().size(dims[i], layer) : g.int64s(literal[i]));
        }
        return g.node("Concat", "shape", parts, attr("axis", 0L));
    }
}

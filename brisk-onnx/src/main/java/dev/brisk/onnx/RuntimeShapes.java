package dev.brisk.onnx;

import static dev.brisk.onnx.OnnxGraph.attr;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Sizes the exported graph computes at run time from its inputs' shapes: the batch size (the first axis of the first
 * input), each open length (its axis of its input), and products of them ({@link SymbolicDim}), as 1-element int64
 * values, and shapes made of such sizes and fixed ones. Each is computed once, where it is first needed.
 */
final class RuntimeShapes {
    private final NodeTranslator t;
    private final OnnxGraph g;
    private final Map<Integer, String> products = new HashMap<>();

    RuntimeShapes(NodeTranslator t) {
        this.t = t;
        this.g = t.graph();
    }

    /**
     * A dimension's size as a 1-element int64 value.
     *
     * @param d a fixed size or a product of dynamic sizes
     * @param what the node or layer, for an error
     * @return the value's name
     * @throws OnnxExportException when the size is irregular
     */
    String size(SymbolicDim d, String what) {
        if (d.isFixed()) {
            return g.int64s(d.value());
        }
        if (d.isIrregular()) {
            throw new OnnxExportException(what + ": a size of " + d.value() + " that depends on the batch size or a"
                    + " sequence length, but is no product of them, would have to be written out; the ONNX export"
                    + " cannot compute it at run time (build the model for one length to export it)");
        }
        String product = product(d.symbols());
        return d.factor() == 1 ? product
                : g.node("Mul", "size_times_" + d.factor(), List.of(product, g.int64s(d.factor())));
    }

    /** The product of the dynamic sizes with a bit in {@code symbols}. */
    private String product(int symbols) {
        String known = products.get(symbols);
        if (known != null) {
            return known;
        }
        String out = null;
        List<InferenceTrace.OpenAxis> all = t.trace().symbols();
        for (int j = 0; j < all.size(); j++) {
            if ((symbols & 1 << j) != 0) {
                String s = symbol(j);
                out = out == null ? s : g.node("Mul", "size_product", List.of(out, s));
            }
        }
        products.put(symbols, out);
        return out;
    }

    /** Dynamic size {@code j} (0 the batch), read from its input's shape. */
    private String symbol(int j) {
        String known = products.get(1 << j);
        if (known == null) {
            InferenceTrace.OpenAxis s = t.trace().symbols().get(j);
            int input = Math.max(s.input(), 0);
            known = g.node("Shape", s.name() + "_size", List.of(t.value(t.trace().inputs().get(input))),
                    attr("start", (long) s.axis()), attr("end", (long) s.axis() + 1));
            products.put(1 << j, known);
        }
        return known;
    }

    /**
     * A shape as an int64 value: a constant when every size is fixed, else a Concat of the sizes computed at run time.
     *
     * @param dims the dimensions
     * @param what the node or layer, for an error
     * @return the value's name
     */
    String shape(SymbolicDim[] dims, String what) {
        long[] fixed = new long[dims.length];
        boolean allFixed = true;
        for (int i = 0; i < dims.length; i++) {
            allFixed &= dims[i].isFixed();
            fixed[i] = dims[i].value();
        }
        if (allFixed) {
            return g.int64s(fixed);
        }
        List<String> parts = new ArrayList<>();
        for (SymbolicDim d : dims) {
            parts.add(size(d, what));
        }
        return g.node("Concat", "shape", parts, attr("axis", 0L));
    }
}

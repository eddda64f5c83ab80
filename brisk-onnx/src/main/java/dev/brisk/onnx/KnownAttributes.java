package dev.brisk.onnx;

import dev.brisk.ops.AttentionAttrs;
import dev.brisk.ops.Attrs;
import dev.brisk.ops.AxisAttrs;
import dev.brisk.ops.BatchNormAttrs;
import dev.brisk.ops.BinaryAttrs;
import dev.brisk.ops.ConvAttrs;
import dev.brisk.ops.ConvGradAttrs;
import dev.brisk.ops.LayerNormAttrs;
import dev.brisk.ops.MatMulAttrs;
import dev.brisk.ops.NoAttrs;
import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
import dev.brisk.ops.PermuteAttrs;
import dev.brisk.ops.PoolAttrs;
import dev.brisk.ops.RecurrentAttrs;
import dev.brisk.ops.ReduceAttrs;
import dev.brisk.ops.ShapeAttrs;
import dev.brisk.ops.SoftmaxAttrs;
import dev.brisk.ops.UnaryAttrs;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What the exporter knows of each inference op: the attribute record it carries, every field of that record it
 * translates, and how many inputs it reads. The rule: a node whose attribute record has a field not listed here (a
 * field added to Brisk's IR after this exporter was written, such as a dilation rate) is refused, naming the layer and
 * the field, because translating the node without it would export a different model. {@code KnownAttributesTest}
 * checks the lists against the records, so a new field fails the build until someone translates or refuses it.
 */
final class KnownAttributes {
    /** One op's attribute record, its translated fields, and its input count (-1: one or more). */
    record Known(Class<? extends Attrs> attrs, List<String> fields, int inputs) {
    }

    private static final Map<OpType, Known> KNOWN = new EnumMap<>(OpType.class);

    static {
        KNOWN.put(OpType.UNARY, new Known(UnaryAttrs.class, List.of("fn", "alpha"), 1));
        KNOWN.put(OpType.BINARY, new Known(BinaryAttrs.class, List.of("fn", "alpha"), 2));
        KNOWN.put(OpType.MATMUL, new Known(MatMulAttrs.class, List.of("transA", "transB"), 2));
        KNOWN.put(OpType.BATCH_MATMUL, new Known(MatMulAttrs.class, List.of("transA", "transB"), 2));
        KNOWN.put(OpType.RESHAPE, new Known(ShapeAttrs.class, List.of("shape"), 1));
        KNOWN.put(OpType.BROADCAST_TO, new Known(ShapeAttrs.class, List.of("shape"), 1));
        KNOWN.put(OpType.CONCAT, new Known(AxisAttrs.class, List.of("axis", "start", "length"), -1));
        KNOWN.put(OpType.SLICE, new Known(AxisAttrs.class, List.of("axis", "start", "length"), 1));
        KNOWN.put(OpType.TRANSPOSE, new Known(NoAttrs.class, List.of(), 1));
        KNOWN.put(OpType.PERMUTE, new Known(PermuteAttrs.class, List.of("perm"), 1));
        KNOWN.put(OpType.REDUCE, new Known(ReduceAttrs.class, List.of("fn", "axes", "keepDims"), 1));
        KNOWN.put(OpType.SOFTMAX, new Known(SoftmaxAttrs.class, List.of("log", "axis"), 1));
        KNOWN.put(OpType.BATCH_NORM, new Known(BatchNormAttrs.class, List.of("epsilon", "training"), 4));
        KNOWN.put(OpType.LAYER_NORM, new Known(LayerNormAttrs.class, List.of("epsilon"), 3));
        KNOWN.put(OpType.CONV2D, new Known(ConvAttrs.class, List.of("strideH", "strideW", "same"), 2));
        // Conv2DTranspose; the nested ConvAttrs are CONV2D's, whose fields the CONV2D entry holds to the record.
        KNOWN.put(OpType.CONV2D_GRAD_INPUT, new Known(ConvGradAttrs.class, List.of("conv", "resultShape"), 2));
        KNOWN.put(OpType.MAX_POOL, new Known(PoolAttrs.class,
                List.of("poolH", "poolW", "strideH", "strideW", "same"), 1));
        KNOWN.put(OpType.AVG_POOL, new Known(PoolAttrs.class,
                List.of("poolH", "poolW", "strideH", "strideW", "same"), 1));
        KNOWN.put(OpType.EMBEDDING_LOOKUP, new Known(NoAttrs.class, List.of(), 2));
        KNOWN.put(OpType.NONZERO_MASK, new Known(NoAttrs.class, List.of(), 1));
        KNOWN.put(OpType.RECURRENT_SEQUENCE, new Known(RecurrentAttrs.class,
                List.of("cell", "units", "returnSequences", "goBackwards", "inputGradient", "returnState", "masked",
                        "initialState", "zeroOutputForMask", "outputInTimeOrder"), -1)); // 4 to 6 inputs: RecurrentTranslation checks
        KNOWN.put(OpType.ATTENTION, new Known(AttentionAttrs.class, List.of("causal"), -1)); // 3 or 4 (a mask)
    }

    private KnownAttributes() {
    }

    /**
     * The ops the exporter translates (besides the leaves INPUT, VARIABLE and CONSTANT).
     *
     * @return the known ops and what is known of each
     */
    static Map<OpType, Known> all() {
        return KNOWN;
    }

    /**
     * Refuses {@code n} unless its op, attribute record, every field of that record and its input count are known.
     *
     * @param n the node
     * @param layer how to name the node's layer in errors
     * @throws OnnxExportException naming the layer, the op and the unknown field
     */
    static void check(Node n, String layer) {
        check(n, layer, KNOWN);
    }

    /**
     * {@link #check(Node, String)} against the given table (tests pass a table that lacks a field).
     *
     * @param n the node
     * @param layer how to name the node's layer in errors
     * @param table what is known of each op
     * @throws OnnxExportException naming the layer, the op and the unknown field
     */
    static void check(Node n, String layer, Map<OpType, Known> table) {
        Known known = table.get(n.op());
        if (known == null) {
            throw new OnnxExportException(layer + ": op " + n.op() + " has no ONNX translation"
                    + (TrainingOps.isTrainingOnly(n.op())
                    ? " (it belongs to training, not to the inference graph that is exported)" : ""));
        }
        Attrs attrs = n.attrs();
        if (!known.attrs().isInstance(attrs)) {
            throw new OnnxExportException(layer + ": op " + n.op() + " carries "
                    + (attrs == null ? "no attributes" : attrs.getClass().getSimpleName()) + ", the exporter knows "
                    + known.attrs().getSimpleName());
        }
        for (String field : fieldsOf(attrs.getClass())) {
            if (!known.fields().contains(field)) {
                throw new OnnxExportException(layer + ": op " + n.op() + " has attribute '" + field + "' ("
                        + attrs.getClass().getSimpleName() + "), which the ONNX exporter does not translate;"
                        + " exporting without it would give a different model");
            }
        }
        int inputs = n.inputs().size();
        if (known.inputs() >= 0 ? inputs != known.inputs() : inputs < 1) {
            throw new OnnxExportException(layer + ": op " + n.op() + " reads " + inputs + " input(s), the exporter"
                    + " knows the form with " + (known.inputs() < 0 ? "one or more" : known.inputs()));
        }
    }

    /**
     * The field names of an attribute record, in declaration order (none for a non-record such as NoAttrs).
     *
     * @param type the attribute class
     * @return the record's component names
     */
    static List<String> fieldsOf(Class<?> type) {
        List<String> names = new ArrayList<>();
        RecordComponent[] components = type.getRecordComponents();
        if (components != null) {
            for (RecordComponent c : components) {
                names.add(c.getName());
            }
        }
        return names;
    }
}

package dev.brisk.onnx;

import static dev.brisk.onnx.OnnxGraph.attr;
import static dev.brisk.onnx.OnnxGraph.ints;

import dev.brisk.ops.AxisAttrs;
import dev.brisk.ops.BatchNormAttrs;
import dev.brisk.ops.LayerNormAttrs;
import dev.brisk.ops.MatMulAttrs;
import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
import dev.brisk.ops.PermuteAttrs;
import dev.brisk.ops.ReduceAttrs;
import dev.brisk.ops.ReduceFn;
import dev.brisk.ops.SoftmaxAttrs;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Translates the live nodes of an {@link InferenceTrace} into ONNX operators, op by op, each into the ONNX operator
 * (or the few operators) that computes the same function. Every node is first checked against
 * {@link KnownAttributes}; the element functions, convolutions and recurrent layers have translators of their own
 * ({@link ElementwiseTranslation}, {@link SpatialTranslation}, {@link RecurrentTranslation}).
 */
final class NodeTranslator {
    /** ONNX's data type number for float32 ({@code TensorProto.FLOAT}). */
    static final long FLOAT = 1;

    private final InferenceTrace trace;
    private final OnnxGraph graph;
    private final Map<Node, String> values = new IdentityHashMap<>();
    private final RuntimeShapes shapes;

    NodeTranslator(InferenceTrace trace, OnnxGraph graph) {
        this.trace = trace;
        this.graph = graph;
        this.shapes = new RuntimeShapes(this);
    }

    /**
     * Names a model input's value (a graph input of the ONNX model).
     *
     * @param n the INPUT node
     * @param name its value name
     */
    void bind(Node n, String name) {
        values.put(n, name);
    }

    /**
     * The ONNX value of a translated node.
     *
     * @param n the node
     * @return its value name
     */
    String value(Node n) {
        String v = values.get(n);
        if (v == null && (n.op() == OpType.VARIABLE || n.op() == OpType.CONSTANT)) {
            // Weights and constants are written when an operator first reads them, so a weight that a translation
            // converts itself (a recurrent layer's) is not also written as it is.
            v = n.op() == OpType.VARIABLE ? graph.initializer(n.variable().name(), n.variable().value()) : constant(n);
            values.put(n, v);
        }
        if (v == null) {
            throw new IllegalStateException("node " + n + " has not been translated");
        }
        return v;
    }

    OnnxGraph graph() {
        return graph;
    }

    InferenceTrace trace() {
        return trace;
    }

    RuntimeShapes shapes() {
        return shapes;
    }

    /** The value name of input {@code i} of {@code n}. */
    String in(Node n, int i) {
        return value(n.input(i));
    }

    /** The preferred name of the values a node's translation makes. */
    String base(Node n) {
        String scope = n.scope();
        String op = n.op().name().toLowerCase(java.util.Locale.ROOT);
        return scope == null || scope.isEmpty() ? op : scope + "/" + op;
    }

    /**
     * Translates one node (its inputs are translated already).
     *
     * @param n the node
     */
    void translate(Node n) {
        String layer = trace.describe(n);
        String out = switch (n.op()) {
            case INPUT -> throw new OnnxExportException(layer + ": the inference graph reads input '" + n.scope()
                    + "', which is not one of the model's inputs");
            case VARIABLE, CONSTANT -> null; // written when first read (value)
            default -> {
                KnownAttributes.check(n, layer);
                yield op(n, layer);
            }
        };
        if (out != null) {
            values.put(n, out);
        }
    }

    private String op(Node n, String layer) {
        if (MeanScale.varies(trace, n)) {
            return MeanScale.translate(this, n, layer);
        }
        return switch (n.op()) {
            case UNARY -> ElementwiseTranslation.unary(this, n, layer);
            case BINARY -> ElementwiseTranslation.binary(this, n, layer);
            case MATMUL, BATCH_MATMUL -> matmul(n);
            case RESHAPE -> graph.node("Reshape", base(n), List.of(in(n, 0), TargetShapes.reshape(this, n, layer)));
            case BROADCAST_TO -> graph.node("Expand", base(n), List.of(in(n, 0), TargetShapes.expand(this, n, layer)));
            case CONCAT -> concat(n);
            case SLICE -> slice(n);
            case TRANSPOSE -> graph.node("Transpose", base(n), List.of(in(n, 0)),
                    ints("perm", swapLastTwo(n.input(0).shape().rank())));
            case PERMUTE -> graph.node("Transpose", base(n), List.of(in(n, 0)),
                    ints("perm", n.attrs(PermuteAttrs.class).perm()));
            case REDUCE -> reduce(n, layer);
            case SOFTMAX -> softmax(n);
            case BATCH_NORM -> batchNorm(n, layer);
            case LAYER_NORM -> graph.node("LayerNormalization", base(n), List.of(in(n, 0), in(n, 1), in(n, 2)),
                    attr("axis", -1L), attr("epsilon", n.attrs(LayerNormAttrs.class).epsilon()));
            case CONV2D -> SpatialTranslation.conv2d(this, n);
            case CONV2D_GRAD_INPUT -> SpatialTranslation.convTranspose(this, n);
            case MAX_POOL, AVG_POOL -> SpatialTranslation.pool(this, n);
            case EMBEDDING_LOOKUP -> graph.node("Gather", base(n), List.of(in(n, 0), in(n, 1)), attr("axis", 0L));
            case NONZERO_MASK -> {
                String zero = graph.node("Equal", base(n) + "/is_padding", List.of(in(n, 0), graph.int32Scalar(0)));
                String real = graph.node("Not", base(n) + "/is_real", List.of(zero));
                yield graph.node("Cast", base(n), List.of(real), attr("to", FLOAT));
            }
            case RECURRENT_SEQUENCE -> RecurrentTranslation.translate(this, n, layer);
            case ATTENTION -> AttentionTranslation.translate(this, n);
            default -> throw new OnnxExportException(layer + ": op " + n.op() + " has no ONNX translation");
        };
    }

    private String constant(Node n) {
        return ConstantTranslation.translate(this, n);
    }

    private String matmul(Node n) {
        MatMulAttrs a = n.attrs(MatMulAttrs.class);
        String left = a.transA() ? graph.node("Transpose", base(n) + "/a_t", List.of(in(n, 0)),
                ints("perm", swapLastTwo(n.input(0).shape().rank()))) : in(n, 0);
        String right = a.transB() ? graph.node("Transpose", base(n) + "/b_t", List.of(in(n, 1)),
                ints("perm", swapLastTwo(n.input(1).shape().rank()))) : in(n, 1);
        return graph.node("MatMul", base(n), List.of(left, right));
    }

    private String concat(Node n) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < n.inputs().size(); i++) {
            parts.add(in(n, i));
        }
        int axis = positiveAxis(n.attrs(AxisAttrs.class).axis(), n.shape().rank());
        return graph.node("Concat", base(n), parts, attr("axis", (long) axis));
    }

    private String slice(Node n) {
        AxisAttrs a = n.attrs(AxisAttrs.class);
        int axis = positiveAxis(a.axis(), n.input(0).shape().rank());
        return graph.node("Slice", base(n), List.of(in(n, 0), graph.int64s(a.start()),
                graph.int64s((long) a.start() + a.length()), graph.int64s(axis)));
    }

    private String reduce(Node n, String layer) {
        ReduceAttrs a = n.attrs(ReduceAttrs.class);
        int rank = n.input(0).shape().rank();
        long[] axes = new long[a.axes().length];
        for (int i = 0; i < axes.length; i++) {
            axes[i] = positiveAxis(a.axes()[i], rank);
        }
        long keep = a.keepDims() ? 1 : 0;
        ReduceFn fn = a.fn();
        return switch (fn) {
            // Opset 13 takes ReduceSum's axes as an input, opset 17 still takes ReduceMax's as an attribute.
            case SUM -> graph.node("ReduceSum", base(n), List.of(in(n, 0), graph.int64s(axes)),
                    attr("keepdims", keep));
            case MAX -> graph.node("ReduceMax", base(n), List.of(in(n, 0)), ints("axes", axes),
                    attr("keepdims", keep));
            default -> throw new OnnxExportException(layer + ": op REDUCE has fn=" + fn
                    + ", which the ONNX exporter does not translate");
        };
    }

    private String softmax(Node n) {
        SoftmaxAttrs a = n.attrs(SoftmaxAttrs.class);
        long axis = positiveAxis(a.axis(), n.shape().rank());
        return graph.node(a.log() ? "LogSoftmax" : "Softmax", base(n), List.of(in(n, 0)), attr("axis", axis));
    }

    /**
     * Inference-mode batch normalization over the last axis, {@code (x - mean) * (gamma / sqrt(var + eps)) + beta},
     * as elementwise ops that broadcast along the channels (ONNX's BatchNormalization wants the channels on axis 1;
     * these work on any rank). The statistics are the {@code [2, channels]} moving mean and variance.
     */
    private String batchNorm(Node n, String layer) {
        BatchNormAttrs a = n.attrs(BatchNormAttrs.class);
        if (a.training()) {
            throw new OnnxExportException(layer + ": op BATCH_NORM has training=true (batch statistics) in the"
                    + " inference graph; ONNX export takes the moving statistics");
        }
        String b = base(n);
        String mean = graph.node("Gather", b + "/mean", List.of(in(n, 1), graph.int32Scalar(0)), attr("axis", 0L));
        String variance = graph.node("Gather", b + "/variance", List.of(in(n, 1), graph.int32Scalar(1)),
                attr("axis", 0L));
        String sd = graph.node("Sqrt", b + "/sd",
                List.of(graph.node("Add", b + "/variance_eps", List.of(variance, graph.floatScalar(a.epsilon())))));
        String scale = graph.node("Div", b + "/scale", List.of(in(n, 2), sd));
        String centered = graph.node("Sub", b + "/centered", List.of(in(n, 0), mean));
        String scaled = graph.node("Mul", b + "/scaled", List.of(centered, scale));
        return graph.node("Add", b, List.of(scaled, in(n, 3)));
    }

    /** The permutation that swaps the last two of {@code rank} axes. */
    static int[] swapLastTwo(int rank) {
        int[] perm = new int[rank];
        for (int i = 0; i < rank; i++) {
            perm[i] = i;
        }
        perm[rank - 2] = rank - 1;
        perm[rank - 1] = rank - 2;
        return perm;
    }

    static int positiveAxis(int axis, int rank) {
        return axis < 0 ? axis + rank : axis;
    }
}

package dev.brisk.onnx;

import static dev.brisk.onnx.OnnxGraph.attr;
import static dev.brisk.onnx.OnnxGraph.ints;

import dev.brisk.ops.AttentionAttrs;
import dev.brisk.ops.Node;
import java.util.List;

/**
 * A fused ATTENTION node written out as the operators it stands for: the heads of q, k and v moved in front of
 * their positions by Transposes, {@code q k^T} by MatMul, the causal mask (-infinity on the later keys, so their
 * probabilities are exactly 0 as in Brisk's kernel; made at run time from the query and key counts, so any length
 * works) and the additive mask added, Softmax over the keys, MatMul by the
 * values, and the heads moved back behind the positions.
 */
final class AttentionTranslation {
    private AttentionTranslation() {
    }

    static String translate(NodeTranslator t, Node n) {
        OnnxGraph graph = t.graph();
        String base = t.base(n);
        String q = graph.node("Transpose", base + "/q_heads", List.of(t.in(n, 0)), ints("perm", 0, 2, 1, 3));
        String k = graph.node("Transpose", base + "/k_heads_t", List.of(t.in(n, 1)), ints("perm", 0, 2, 3, 1));
        String v = graph.node("Transpose", base + "/v_heads", List.of(t.in(n, 2)), ints("perm", 0, 2, 1, 3));
        String scores = graph.node("MatMul", base + "/scores", List.of(q, k));
        if (n.attrs(AttentionAttrs.class).causal()) {
            // Key j is later than query i where i < j: positions compared at run time, so any length is masked.
            String rows = graph.node("Unsqueeze", base + "/query_positions", List.of(positions(t, n, 0, "queries"),
                    graph.int64s(1)));
            String cols = graph.node("Unsqueeze", base + "/key_positions", List.of(positions(t, n, 1, "keys"),
                    graph.int64s(0)));
            String later = graph.node("Less", base + "/later", List.of(rows, cols));
            scores = graph.node("Where", base + "/causal", List.of(later,
                    graph.floatScalar(Float.NEGATIVE_INFINITY), scores));
        }
        if (n.inputs().size() > 3) {
            // [B, rows, S] as [B, 1, rows, S]: the same mask for every head.
            String mask = graph.node("Unsqueeze", base + "/mask_heads", List.of(t.in(n, 3), graph.int64s(1)));
            scores = graph.node("Add", base + "/masked", List.of(scores, mask));
        }
        String probs = graph.node("Softmax", base + "/probs", List.of(scores), attr("axis", 3L));
        String attended = graph.node("MatMul", base + "/attended", List.of(probs, v));
        return graph.node("Transpose", base, List.of(attended), ints("perm", 0, 2, 1, 3));
    }

    /** {@code 0 .. steps - 1} for the steps (axis 1) of input {@code i}, read from its shape at run time. */
    private static String positions(NodeTranslator t, Node n, int i, String what) {
        OnnxGraph graph = t.graph();
        String base = t.base(n);
        String steps = graph.node("Shape", base + "/" + what, List.of(t.in(n, i)), attr("start", 1L), attr("end", 2L));
        String scalar = graph.node("Squeeze", base + "/" + what + "_count", List.of(steps, graph.int64s(0)));
        return graph.node("Range", base + "/" + what + "_positions", List.of(graph.int64Scalar(0), scalar,
                graph.int64Scalar(1)));
    }
}

package dev.brisk.onnx;

import static dev.brisk.onnx.OnnxGraph.attr;
import static dev.brisk.onnx.OnnxGraph.ints;

import dev.brisk.ops.AttentionAttrs;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Tensor;
import java.util.List;

/**
 * A fused ATTENTION node written out as the operators it stands for: the heads of q, k and v moved in front of
 * their positions by Transposes, {@code q k^T} by MatMul, the causal mask (-infinity on the later keys, so their
 * probabilities are exactly 0 as in Brisk's kernel) and the additive mask added, Softmax over the keys, MatMul by the
 * values, and the heads moved back behind the positions.
 */
final class AttentionTranslation {
    private AttentionTranslation() {
    }

    static String translate(NodeTranslator t, Node n) {
        OnnxGraph graph = t.graph();
        String base = t.base(n);
        int queries = n.input(0).shape().dim(1);
        int keys = n.input(1).shape().dim(1);
        String q = graph.node("Transpose", base + "/q_heads", List.of(t.in(n, 0)), ints("perm", 0, 2, 1, 3));
        String k = graph.node("Transpose", base + "/k_heads_t", List.of(t.in(n, 1)), ints("perm", 0, 2, 3, 1));
        String v = graph.node("Transpose", base + "/v_heads", List.of(t.in(n, 2)), ints("perm", 0, 2, 1, 3));
        String scores = graph.node("MatMul", base + "/scores", List.of(q, k));
        if (n.attrs(AttentionAttrs.class).causal()) {
            Tensor later = Tensor.zeros(queries, keys);
            for (int i = 0; i < queries; i++) {
                for (int j = i + 1; j < keys; j++) {
                    later.set(i * keys + j, Float.NEGATIVE_INFINITY);
                }
            }
            scores = graph.node("Add", base + "/causal", List.of(scores, graph.initializer(base + "/later", later)));
        }
        if (n.inputs().size() > 3) {
            // [B, rows, S] as [B, 1, rows, S]: the same mask for every head.
            int rows = n.input(3).shape().dim(1);
            String mask = graph.node("Reshape", base + "/mask_heads", List.of(t.in(n, 3),
                    graph.int64s(0, 1, rows, keys)));
            scores = graph.node("Add", base + "/masked", List.of(scores, mask));
        }
        String probs = graph.node("Softmax", base + "/probs", List.of(scores), attr("axis", 3L));
        String attended = graph.node("MatMul", base + "/attended", List.of(probs, v));
        return graph.node("Transpose", base, List.of(attended), ints("perm", 0, 2, 1, 3));
    }
}

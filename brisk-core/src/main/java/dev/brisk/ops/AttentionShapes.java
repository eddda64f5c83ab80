package dev.brisk.ops;

import dev.brisk.tensor.Shape;
import java.util.List;

/**
 * The shape rules of ATTENTION and ATTENTION_GRAD: queries {@code [B, T, H, D]}, keys {@code [B, S, H, D]}, values
 * {@code [B, S, H, Dv]} and an optional additive mask {@code [B, T, S]} or {@code [B, 1, S]}.
 */
final class AttentionShapes {
    private AttentionShapes() {
    }

    /** The output {@code [B, T, H, Dv]} of an ATTENTION over {@code inputs}, or an error naming both shapes. */
    static Shape forward(List<Node> inputs) {
        if (inputs.size() < 3 || inputs.size() > 4) {
            throw new IllegalArgumentException("ATTENTION takes q, k, v and optionally a mask, got " + inputs.size()
                    + " inputs");
        }
        Shape q = inputs.get(0).shape();
        Shape k = inputs.get(1).shape();
        Shape v = inputs.get(2).shape();
        if (q.rank() != 4 || k.rank() != 4 || v.rank() != 4) {
            throw new IllegalArgumentException("ATTENTION takes q [B, T, H, D], k [B, S, H, D] and v [B, S, H, Dv], got "
                    + q + ", " + k + " and " + v);
        }
        if (k.dim(0) != q.dim(0) || k.dim(2) != q.dim(2) || k.dim(3) != q.dim(3)) {
            throw new IllegalArgumentException("ATTENTION keys " + k + " do not match queries " + q
                    + " in batch, heads or depth");
        }
        if (v.dim(0) != k.dim(0) || v.dim(1) != k.dim(1) || v.dim(2) != k.dim(2)) {
            throw new IllegalArgumentException("ATTENTION values " + v + " do not match keys " + k
                    + " in batch, length or heads");
        }
        if (inputs.size() == 4) {
            Shape m = inputs.get(3).shape();
            boolean fits = m.rank() == 3 && m.dim(0) == q.dim(0) && (m.dim(1) == q.dim(1) || m.dim(1) == 1)
                    && m.dim(2) == k.dim(1);
            if (!fits) {
                throw new IllegalArgumentException("ATTENTION mask must be " + Shape.of(q.dim(0), q.dim(1), k.dim(1))
                        + " or " + Shape.of(q.dim(0), 1, k.dim(1)) + " for queries " + q + " and keys " + k + ", got "
                        + m);
            }
        }
        return Shape.of(q.dim(0), q.dim(1), q.dim(2), v.dim(3));
    }

    /** The flat result of an ATTENTION_GRAD: as many elements as q, k and v together. */
    static Shape backward(List<Node> inputs) {
        Node forward = inputs.get(1);
        if (forward.op() != OpType.ATTENTION) {
            throw new IllegalArgumentException("ATTENTION_GRAD reads an ATTENTION node, got " + forward.op());
        }
        if (!inputs.get(0).shape().equals(forward.shape())) {
            throw new IllegalArgumentException("ATTENTION_GRAD upstream gradient " + inputs.get(0).shape()
                    + " differs from the attention's output " + forward.shape());
        }
        return Shape.of(forward.input(0).shape().size() + forward.input(1).shape().size()
                + forward.input(2).shape().size());
    }

    /**
     * Each query row's score maximum and reciprocal sum of exponentials, {@code [B, H, T, 2]}, that an ATTENTION
     * keeps for its gradient.
     */
    static Shape rowStatistics(Node attention) {
        Shape q = attention.input(0).shape();
        return Shape.of(q.dim(0), q.dim(2), q.dim(1), 2);
    }
}

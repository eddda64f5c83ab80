package dev.brisk.profile;

import dev.brisk.ops.AdadeltaUpdate;
import dev.brisk.ops.AdagradUpdate;
import dev.brisk.ops.AdamUpdate;
import dev.brisk.ops.AdamaxUpdate;
import dev.brisk.ops.AmsgradUpdate;
import dev.brisk.ops.FtrlUpdate;
import dev.brisk.ops.LionUpdate;
import dev.brisk.ops.NadamUpdate;
import dev.brisk.ops.Attrs;
import dev.brisk.ops.BinaryAttrs;
import dev.brisk.ops.FusedAttrs;
import dev.brisk.ops.MatMulAttrs;
import dev.brisk.ops.Node;
import dev.brisk.ops.ReduceAttrs;
import dev.brisk.ops.RmspropFullUpdate;
import dev.brisk.ops.RmspropUpdate;
import dev.brisk.ops.SgdUpdate;
import dev.brisk.ops.SoftmaxAttrs;
import dev.brisk.ops.UnaryAttrs;

/**
 * What a profile says about one kernel call: the op (with its function, as in {@code UNARY(RELU)}; a fused call
 * lists its nodes, as in {@code CONV2D+BINARY(ADD)+UNARY(RELU)}), the node's id in its graph (for a fused call, its
 * first node's), the layer that made it (for optimiser updates, the weight they write), the shapes it reads and
 * writes, and its estimated FLOPs.
 *
 * @param shapes e.g. {@code (128, 512)^T, (128, 10) -> (512, 10)}, with {@code ^T} on the operands a product
 *               transposes; an optimiser update shows the weight it changes in place
 * @param op the op, e.g. {@code MATMUL} or {@code UNARY(RELU)}
 * @param node the node's id in its graph
 * @param layer the layer that made the node, or the weight an optimiser update writes
 * @param flops the estimated floating-point operations of the call
 */
public record OpInfo(String op, int node, String layer, String shapes, long flops) {
    static OpInfo of(Node n) {
        String layer = n.isSideEffect() && n.variable() != null ? n.variable().name()
                : n.scope().isEmpty() ? "-" : n.scope();
        return new OpInfo(name(n), n.id(), layer, shapes(n), Flops.of(n));
    }

    private static String name(Node n) {
        return switch (n.attrs()) {
            case FusedAttrs f -> {
                StringBuilder sb = new StringBuilder();
                for (Node part : f.nodes()) {
                    sb.append(sb.isEmpty() ? "" : "+").append(name(part));
                }
                yield sb.toString();
            }
            case UnaryAttrs a -> "UNARY(" + a.fn() + ")";
            case BinaryAttrs a -> "BINARY(" + a.fn() + ")";
            case ReduceAttrs a -> "REDUCE(" + a.fn() + ")";
            case AdamUpdate _ -> "UPDATE(ADAM)";
            case SgdUpdate _ -> "UPDATE(SGD)";
            case RmspropUpdate _ -> "UPDATE(RMSPROP)";
            case AdagradUpdate _ -> "UPDATE(ADAGRAD)";
            case AdadeltaUpdate _ -> "UPDATE(ADADELTA)";
            case AdamaxUpdate _ -> "UPDATE(ADAMAX)";
            case NadamUpdate _ -> "UPDATE(NADAM)";
            case LionUpdate _ -> "UPDATE(LION)";
            case AmsgradUpdate _ -> "UPDATE(AMSGRAD)";
            case RmspropFullUpdate _ -> "UPDATE(RMSPROP)";
            case FtrlUpdate _ -> "UPDATE(FTRL)";
            case SoftmaxAttrs a when a.log() -> "LOG_" + n.op();
            default -> n.op().toString();
        };
    }

    private static String shapes(Node n) {
        if (n.isSideEffect()) {
            return n.input(0).shape() + " in place";
        }
        boolean[] transposed = new boolean[n.inputs().size()];
        Attrs attrs = n.attrs() instanceof FusedAttrs f ? f.anchor().attrs() : n.attrs();
        if (attrs instanceof MatMulAttrs t) {
            transposed[0] = t.transA();
            transposed[1] = t.transB();
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < transposed.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(n.input(i).shape()).append(transposed[i] ? "^T" : "");
        }
        return sb.append(" -> ").append(n.shape()).toString();
    }
}

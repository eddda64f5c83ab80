package dev.brisk.ops;

import dev.brisk.tensor.DType;
import java.util.List;

/**
 * Output element types of the primitive ops. Most ops do float arithmetic and take only FLOAT32 inputs; an INT32
 * value (token ids, stored as raw int bits) may be read only where the op reads int bits: the ids of
 * EMBEDDING_LOOKUP and EMBEDDING_GRAD and the input of NONZERO_MASK, or carried unchanged by RESHAPE and SLICE.
 */
public final class DTypeInference {
    private DTypeInference() {
    }

    /**
     * The output element type of {@code op} applied to {@code inputs}.
     *
     * @param op the operation
     * @param inputs its input nodes
     * @return the output dtype
     * @throws IllegalArgumentException when an input's dtype does not fit the op (an op doing float arithmetic on
     *     INT32 ids, or int ids given as floats); the message names the op and the input node
     */
    public static DType infer(OpType op, List<Node> inputs) {
        return switch (op) {
            case RESHAPE, SLICE -> inputs.get(0).dtype();
            case EMBEDDING_LOOKUP -> {
                require(op, inputs, 0, DType.FLOAT32);
                require(op, inputs, 1, DType.INT32);
                yield DType.FLOAT32;
            }
            case EMBEDDING_GRAD -> {
                require(op, inputs, 0, DType.FLOAT32);
                require(op, inputs, 1, DType.INT32);
                yield DType.FLOAT32;
            }
            case NONZERO_MASK -> {
                require(op, inputs, 0, DType.INT32);
                yield DType.FLOAT32;
            }
            default -> {
                for (int i = 0; i < inputs.size(); i++) {
                    require(op, inputs, i, DType.FLOAT32);
                }
                yield DType.FLOAT32;
            }
        };
    }

    private static void require(OpType op, List<Node> inputs, int i, DType expected) {
        Node in = inputs.get(i);
        if (in.dtype() == expected) {
            return;
        }
        String what = describe(in);
        if (expected == DType.FLOAT32) {
            throw new IllegalArgumentException(op + " does float arithmetic and cannot read the INT32 value " + what
                    + "; integer ids are read only by an embedding lookup (Embedding layer)");
        }
        throw new IllegalArgumentException(op + " needs INT32 ids as input " + i + " but " + what + " is "
                + in.dtype() + "; give ids as Tensor.ofInts and declare the input INT32 (Input.of(DType.INT32, ..))");
    }

    private static String describe(Node n) {
        return "%" + n.id() + " (" + n.op() + (n.scope().isEmpty() ? "" : " '" + n.scope() + "'") + ", "
                + n.shape() + ")";
    }
}

package dev.brisk.profile;

import dev.brisk.ops.AttentionAttrs;
import dev.brisk.ops.AdadeltaUpdate;
import dev.brisk.ops.AdagradUpdate;
import dev.brisk.ops.AdamUpdate;
import dev.brisk.ops.AdamaxUpdate;
import dev.brisk.ops.AmsgradUpdate;
import dev.brisk.ops.FtrlUpdate;
import dev.brisk.ops.LionUpdate;
import dev.brisk.ops.NadamUpdate;
import dev.brisk.ops.FusedAttrs;
import dev.brisk.ops.MatMulAttrs;
import dev.brisk.ops.Node;
import dev.brisk.ops.PoolAttrs;
import dev.brisk.ops.PoolGradAttrs;
import dev.brisk.ops.RecurrentGeometry;
import dev.brisk.ops.RmspropFullUpdate;
import dev.brisk.ops.RmspropUpdate;
import dev.brisk.ops.SgdUpdate;
import dev.brisk.ops.ShapeInference;
import dev.brisk.ops.UpdateAttrs;
import dev.brisk.tensor.Shape;

/**
 * Estimated floating-point operations of one kernel call, counted as profilers of deep-learning frameworks do (a
 * multiply and an add are two). Matrix products and convolutions are exact: {@code 2*m*n*k}, and 2 x output
 * elements x kernel window x input channels for a convolution and for both of its gradients. Elementwise ops count
 * one per element, reductions one per input element, pooling one per window element, softmax five and its
 * gradient four per element (a softmax cross-entropy five per logit, its gradient one), optimiser steps what their
 * update rule does per weight (Adam 12). Data movement (copies, transposes, slices, gathers, broadcasts) counts
 * zero. A fused call counts what its nodes would.
 */
final class Flops {
    private static final long SOFTMAX_PER_ELEMENT = 5; // max, subtract, exp, sum, divide (or log)
    private static final long SOFTMAX_GRAD_PER_ELEMENT = 4;
    private static final long ADAM_PER_WEIGHT = 12; // two moment updates (7), bias-corrected step with sqrt (5)
    private static final long RMSPROP_PER_WEIGHT = 8;
    private static final long SGD_PER_WEIGHT = 2;
    private static final long MOMENTUM_PER_WEIGHT = 2;
    // Counted as written in the kernels (the decoupled weight decay, when on, adds 2 more, not counted, as Adam's).
    private static final long ADAGRAD_PER_WEIGHT = 7; // accumulate g^2 (2), lr g / sqrt(acc + eps) and subtract (5)
    private static final long ADADELTA_PER_WEIGHT = 17; // two running means (4 + 4), the delta (7), the step (2)
    private static final long ADAMAX_PER_WEIGHT = 10; // moment (3), infinity norm (3), step (4)
    private static final long NADAM_PER_WEIGHT = 15; // moments (3 + 4), the step with its two rates (8)
    private static final long LION_PER_WEIGHT = 9; // interpolation (3), sign and step (3), momentum (3)
    private static final long AMSGRAD_PER_WEIGHT = ADAM_PER_WEIGHT + 1; // the running maximum
    private static final long RMSPROP_FULL_PER_WEIGHT = 9; // mean square (4), eps (1), increment (3), subtract (1)
    private static final long CENTERED_PER_WEIGHT = 5; // mean gradient (3), minus its square (2)
    // shrinkage (2), accumulator (2), two powers and their difference (3), linear (4), quadratic (2), clip and step (4)
    private static final long FTRL_PER_WEIGHT = 17;

    private Flops() {
    }

    static long of(Node n) {
        if (n.attrs() instanceof FusedAttrs f) {
            long sum = 0;
            for (Node part : f.nodes()) {
                sum += of(part);
            }
            return sum;
        }
        long size = n.shape().size();
        return switch (n.op()) {
            case INPUT, VARIABLE, CONSTANT, RESHAPE, TRANSPOSE, CONCAT, SLICE, BROADCAST_TO, GATHER_ROWS,
                 SCATTER_ROWS, ASSIGN -> 0;
            case MATMUL -> matmul(n);
            case CONV2D -> conv(n.input(1).shape(), n.shape());
            case CONV2D_GRAD_INPUT -> conv(n.input(1).shape(), n.input(0).shape());
            case CONV2D_GRAD_FILTER -> conv(n.shape(), n.input(1).shape());
            case UNARY, BINARY, DROPOUT, RANDOM_NORMAL -> size;
            case DROPOUT_GRAD -> 2 * size; // multiply by the mask, then scale
            // At most four reads and a blend per element (bilinear); contrast is a mean and a multiply-add.
            case IMAGE_AUGMENT, IMAGE_AUGMENT_GRAD -> 8 * size;
            case REDUCE -> n.input(0).shape().size();
            // Two passes (sum, then centered squares); a multiply-add per element; two sums; five operations.
            case BATCH_NORM_STATS -> 4L * n.input(0).shape().size();
            case BATCH_NORM -> 2 * size;
            case BATCH_NORM_PARAM_GRAD -> 3L * n.input(1).shape().size();
            case BATCH_NORM_GRAD -> 5 * size;
            case SOFTMAX -> SOFTMAX_PER_ELEMENT * size;
            case SOFTMAX_GRAD -> SOFTMAX_GRAD_PER_ELEMENT * size;
            // Softmax of the logits (the loss of a row is then one subtraction); the gradient is a multiply.
            case SPARSE_SOFTMAX_XENT -> SOFTMAX_PER_ELEMENT * n.input(0).shape().size();
            case SPARSE_SOFTMAX_XENT_GRAD -> size;
            case MAX_POOL, AVG_POOL -> size * window((PoolAttrs) n.attrs());
            case MAX_POOL_GRAD -> n.input(1).shape().size() * window(((PoolGradAttrs) n.attrs()).pool());
            case AVG_POOL_GRAD -> n.input(0).shape().size() * window(((PoolGradAttrs) n.attrs()).pool());
            case UPDATE -> update(n);
            case PERMUTE -> 0;
            case BATCH_MATMUL -> batchMatmul(n);
            // Per element: two passes for the statistics (sum, centered square), then a multiply-add and a scale.
            case LAYER_NORM -> 5 * size;
            case LAYER_NORM_PARAM_GRAD -> 6L * n.input(1).shape().size();
            case LAYER_NORM_GRAD -> 10 * size;
            case EMBEDDING_LOOKUP, NONZERO_MASK -> 0; // copies rows / compares bits
            case EMBEDDING_GRAD -> n.input(0).shape().size(); // one add per upstream element
            case RECURRENT_SEQUENCE -> recurrent(n, false);
            case RECURRENT_SEQUENCE_GRAD -> recurrent(n.input(1), true);
            case ATTENTION -> attention(n, false);
            case ATTENTION_GRAD -> attention(n.input(1), true);
        };
    }

    private static long attention(Node forward, boolean gradient) {
        return forward.attrs(AttentionAttrs.class).flops(forward.input(0).shape(), forward.input(1).shape().dim(1),
                forward.shape().dim(3), gradient);
    }

    private static long matmul(Node n) {
        MatMulAttrs t = (MatMulAttrs) n.attrs();
        Shape a = n.input(0).shape();
        long inner = t.transA() ? a.dim(0) : a.dim(1);
        return 2L * n.shape().dim(0) * n.shape().dim(1) * inner;
    }

    /** A kernel of shape (kh, kw, in, out) applied at every element of {@code outputs} (batch, h, w, out). */
    private static long conv(Shape kernel, Shape outputs) {
        return 2L * outputs.size() * kernel.dim(0) * kernel.dim(1) * kernel.dim(2);
    }

    private static long window(PoolAttrs a) {
        return (long) a.poolH() * a.poolW();
    }

    private static long update(Node n) {
        long weights = n.input(0).shape().size();
        UpdateAttrs a = n.attrs(UpdateAttrs.class);
        return weights * switch (a) {
            case AdamUpdate _ -> ADAM_PER_WEIGHT;
            case RmspropUpdate _ -> RMSPROP_PER_WEIGHT;
            case SgdUpdate _ -> n.inputs().size() == 4 ? SGD_PER_WEIGHT + MOMENTUM_PER_WEIGHT : SGD_PER_WEIGHT;
            case AdagradUpdate _ -> ADAGRAD_PER_WEIGHT;
            case AdadeltaUpdate _ -> ADADELTA_PER_WEIGHT;
            case AdamaxUpdate _ -> ADAMAX_PER_WEIGHT;
            case NadamUpdate _ -> NADAM_PER_WEIGHT;
            case LionUpdate _ -> LION_PER_WEIGHT;
            case AmsgradUpdate _ -> AMSGRAD_PER_WEIGHT;
            case FtrlUpdate _ -> FTRL_PER_WEIGHT;
            case RmspropFullUpdate r -> RMSPROP_FULL_PER_WEIGHT + (r.centered() ? CENTERED_PER_WEIGHT : 0)
                    + (r.momentum() > 0 ? MOMENTUM_PER_WEIGHT : 0);
        };
    }

    /** {@code 2 m n k} per batch entry of the output. */
    private static long batchMatmul(Node n) {
        MatMulAttrs t = (MatMulAttrs) n.attrs();
        Shape a = n.input(0).shape();
        long inner = t.transA() ? a.dim(-2) : a.dim(-1);
        return 2L * n.shape().size() * inner;
    }

    /**
     * A recurrent op's products: the input's and the previous state's with the kernels at every step (forward);
     * backward, those of the gates' gradients with both kernels and the two weight gradients, twice as many.
     */
    private static long recurrent(Node forward, boolean backward) {
        RecurrentGeometry g = ShapeInference.recurrentGeometry(forward);
        long products = 2L * g.rows() * g.gateWidth() * (g.inputs() + g.units());
        return backward ? 2 * products : products;
    }
}

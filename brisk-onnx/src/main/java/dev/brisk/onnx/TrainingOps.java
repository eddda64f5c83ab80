package dev.brisk.onnx;

import dev.brisk.ops.OpType;
import java.util.EnumSet;
import java.util.Set;

/**
 * The ops that only a training step makes (statistics of the batch, gradients, dropout, noise, losses, optimizer
 * updates), which an inference graph never holds; the exporter names them so in its error when one turns up. A
 * convolution's input gradient is not one of them: outside training it is Conv2DTranspose.
 * {@code KnownAttributesTest} checks that every op is either here, translated, or a leaf, so a new op fails the
 * build until it is classified.
 */
final class TrainingOps {
    private static final Set<OpType> TRAINING_ONLY = EnumSet.of(
            OpType.BATCH_NORM_STATS, OpType.BATCH_NORM_PARAM_GRAD, OpType.BATCH_NORM_GRAD, OpType.SOFTMAX_GRAD,
            OpType.GATHER_ROWS, OpType.SCATTER_ROWS, OpType.SPARSE_SOFTMAX_XENT, OpType.SPARSE_SOFTMAX_XENT_GRAD,
            OpType.CONV2D_GRAD_FILTER, OpType.MAX_POOL_GRAD, OpType.AVG_POOL_GRAD,
            OpType.DROPOUT, OpType.DROPOUT_GRAD, OpType.ASSIGN, OpType.UPDATE, OpType.LAYER_NORM_PARAM_GRAD,
            OpType.LAYER_NORM_GRAD, OpType.EMBEDDING_GRAD, OpType.RECURRENT_SEQUENCE_GRAD, OpType.RANDOM_NORMAL,
            OpType.IMAGE_AUGMENT, OpType.IMAGE_AUGMENT_GRAD, OpType.ATTENTION_GRAD);

    private TrainingOps() {
    }

    /**
     * Whether {@code op} belongs only to training.
     *
     * @param op the op
     * @return true for gradients, batch statistics, dropout, losses and updates
     */
    static boolean isTrainingOnly(OpType op) {
        return TRAINING_ONLY.contains(op);
    }

    /**
     * The training-only ops.
     *
     * @return the set
     */
    static Set<OpType> all() {
        return TRAINING_ONLY;
    }
}

package dev.brisk.metrics;

import dev.brisk.tensor.DType;
import dev.brisk.tensor.Tensor;

/** Reading targets and predictions as numbers whatever their element type (class ids may arrive as INT32). */
final class Values {
    private Values() {
    }

    /** The element at {@code flatIndex} as a double: INT32 elements by value, float elements as they are. */
    static double at(Tensor t, int flatIndex) {
        return t.dtype() == DType.INT32 ? t.intAt(flatIndex) : t.get(flatIndex);
    }

    /** Rows of a batch: the first axis, or 1 for a scalar. */
    static int rows(Tensor t) {
        return t.shape().rank() == 0 ? 1 : t.shape().dim(0);
    }

    /**
     * Checks that targets and predictions have the same number of elements, as the element-wise metrics need.
     *
     * @throws IllegalArgumentException naming the metric and both shapes otherwise
     */
    static void requireSameSize(String metric, Tensor yTrue, Tensor yPred) {
        if (yTrue.size() != yPred.size()) {
            throw new IllegalArgumentException(metric + ": targets " + yTrue.shape() + " and predictions "
                    + yPred.shape() + " have different sizes");
        }
    }
}

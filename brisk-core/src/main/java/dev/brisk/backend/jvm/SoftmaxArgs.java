package dev.brisk.backend.jvm;

/**
 * The arguments of a parallel row-wise softmax call ({@link VectorSoftmax}): softmax or log-softmax and its
 * gradient, and the sparse softmax cross-entropy and its gradient, each over rows of {@code cols} columns.
 */
final class SoftmaxArgs extends RegionTask<SoftmaxArgs> {
    /** Log-softmax rather than softmax. */
    boolean log;
    int cols;
    /** The logits. */
    float[] x;
    int xOff;
    /** The softmax's output (its gradient reads it back). */
    float[] y;
    int yOff;
    float[] dy;
    int dyOff;
    float[] dx;
    int dxOff;
    /** The cross-entropy's class index of each row. */
    float[] index;
    int indexOff;
    /** The cross-entropy's probabilities, written forward and read by its gradient. */
    float[] probs;
    int probsOff;
    /** The cross-entropy's loss of each row. */
    float[] loss;
    int lossOff;

    /** This thread's instance. */
    static SoftmaxArgs get() {
        return Scratch.get().softmaxArgs();
    }

    @Override
    void clearReferences() {
        x = null;
        y = null;
        dy = null;
        dx = null;
        index = null;
        probs = null;
        loss = null;
    }
}

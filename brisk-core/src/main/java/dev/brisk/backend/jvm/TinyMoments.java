package dev.brisk.backend.jvm;

/**
 * Below which value an optimiser step counts a moment as zero: where the products it is about to go through would
 * make it a denormal float. Adam's first moment is multiplied by {@code beta1} and then, when no gradient adds to it,
 * by the learning rate; its second moment by {@code beta2}; SGD's velocity by the momentum (twice with Nesterov);
 * RMSprop's mean square by {@code rho}; the newer optimizers' moments by their own decays ({@link #decaying}),
 * Adamax's, Nadam's and AMSGrad's first moments as Adam's. That is nearly what the flush-to-zero mode TensorFlow runs
 * its kernels in would make of them.
 *
 * <p>Why: the JVM keeps denormals, and on x86 every vector instruction that makes or reads one is slow. A moment
 * that decays without a gradient (a weight on an input that is always zero, or out of a dead unit) passes through
 * that range, and in W1 such moments made Adam more than twice as slow from the second epoch on (BENCHMARKS.md,
 * "Denormal moments"). One test per moment, before its first product, costs the fewest instructions. The scalar and
 * vector kernels apply the same tests to these thresholds, so both give the same bits; this class holds no vector
 * code, so the scalar fallback runs without the Vector API module.
 */
final class TinyMoments {
    private TinyMoments() {
    }

    /** Adam's first moments: {@code beta1 * m} and {@code lr * beta1 * m} must stay normal (a zero rate makes none). */
    static float adamFirst(float beta1, float lrT) {
        float lrFactor = lrT == 0 ? 1f : Math.min(lrT, 1f);
        return Float.MIN_NORMAL / (beta1 * lrFactor);
    }

    /** Adam's second moments (never negative). */
    static float adamSecond(float beta2) {
        return Float.MIN_NORMAL / beta2;
    }

    /** SGD's velocities. */
    static float sgdVelocity(float momentum, boolean nesterov) {
        return Float.MIN_NORMAL / (nesterov ? momentum * momentum : momentum);
    }

    /** RMSprop's mean squares (never negative). */
    static float rmspropMeanSquare(float rho) {
        return Float.MIN_NORMAL / rho;
    }

    /**
     * A moment that the step multiplies by {@code decay} alone (Adadelta's and RMSprop's means, Adamax's norm,
     * Nadam's and AMSGrad's second moments, Lion's and RMSprop's momenta); none when nothing decays it.
     */
    static float decaying(float decay) {
        return decay <= 0 ? 0f : Float.MIN_NORMAL / decay;
    }

    /** The value {@code x} holds for the step: 0 when it is below {@code tiny} in magnitude. */
    static float flush(float x, float tiny) {
        return Math.abs(x) < tiny ? 0f : x;
    }
}

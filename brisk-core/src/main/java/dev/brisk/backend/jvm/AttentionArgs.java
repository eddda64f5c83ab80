package dev.brisk.backend.jvm;

import dev.brisk.ops.AttentionGeometry;

/**
 * The arguments of an attention call split over its (batch entry, head) pairs ({@link VectorAttention}): the
 * forward pass reads q, k, v and the mask and writes the output and the row statistics; the backward pass also
 * reads the output, the statistics and the upstream gradient and writes the packed gradients.
 */
final class AttentionArgs extends RegionTask<AttentionArgs> {
    private static final ThreadLocal<AttentionArgs> LOCAL = ThreadLocal.withInitial(AttentionArgs::new);

    AttentionGeometry g;
    float[] q;
    int qOff;
    float[] k;
    int kOff;
    float[] v;
    int vOff;
    /** The additive mask, or null. */
    float[] mask;
    int maskOff;
    float[] out;
    int outOff;
    /** Each query row's score maximum and reciprocal sum of exponentials. */
    float[] stats;
    int statsOff;
    float[] dOut;
    int dOutOff;
    /** The gradients of q, k and v, packed. */
    float[] grads;
    int gradsOff;

    /** This thread's instance. */
    static AttentionArgs get() {
        return LOCAL.get();
    }

    @Override
    void clearReferences() {
        g = null;
        q = null;
        k = null;
        v = null;
        mask = null;
        out = null;
        stats = null;
        dOut = null;
        grads = null;
    }
}

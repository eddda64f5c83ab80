package dev.brisk.backend.jvm;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * The fused optimiser updates, vectorised with the same operation order as {@link ScalarKernels}. The masked tail
 * handles sizes that are not a multiple of the vector length. Each element is updated on its own, so a split into
 * several chunks per thread (a slowed thread does fewer of them) gives the same bits.
 *
 * <p>A moment too small for its next products to stay normal floats counts as zero: see {@link TinyMoments}.
 */
final class VectorOptimizers {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();

    private VectorOptimizers() {
    }

    static void adam(float[] p, int pOff, float[] g, int gOff, float[] m, int mOff, float[] v, int vOff, int n,
                     float lrT, float beta1, float beta2, float epsHat, float decay) {
        if (Split.serial(n, VectorElementwise.GRAIN)) {
            adamRange(p, pOff, g, gOff, m, mOff, v, vOff, 0, n, lrT, beta1, beta2, epsHat, decay);
        } else {
            OptimizerArgs r = OptimizerArgs.get();
            r.p = p;
            r.pOff = pOff;
            r.g = g;
            r.gOff = gOff;
            r.m = m;
            r.mOff = mOff;
            r.v = v;
            r.vOff = vOff;
            r.lr = lrT;
            r.beta1 = beta1;
            r.beta2 = beta2;
            r.eps = epsHat;
            r.decay = decay;
            r.forRange(n, VectorElementwise.GRAIN, Split.CHUNKS_PER_THREAD, (a, i0, i1) -> adamRange(a.p, a.pOff,
                    a.g, a.gOff, a.m, a.mOff, a.v, a.vOff, i0, i1, a.lr, a.beta1, a.beta2, a.eps, a.decay));
        }
    }

    private static void adamRange(float[] p, int pOff, float[] g, int gOff, float[] m, int mOff, float[] v,
                                  int vOff, int i0, int i1, float lrT, float beta1, float beta2, float epsHat,
                                  float decay) {
        float c1 = 1 - beta1;
        float c2 = 1 - beta2;
        float mTiny = TinyMoments.adamFirst(beta1, lrT);
        float vTiny = TinyMoments.adamSecond(beta2);
        for (int i = i0; i < i1; i += L) {
            VectorMask<Float> k = S.indexInRange(i, i1);
            FloatVector gi = FloatVector.fromArray(S, g, gOff + i, k);
            FloatVector m0 = FloatVector.fromArray(S, m, mOff + i, k);
            FloatVector mi = m0.blend(0f, m0.abs().lt(mTiny)).mul(beta1).add(gi.mul(c1));
            FloatVector v0 = FloatVector.fromArray(S, v, vOff + i, k);
            FloatVector vi = v0.blend(0f, v0.lt(vTiny)).mul(beta2).add(gi.mul(c2).mul(gi));
            FloatVector pi = FloatVector.fromArray(S, p, pOff + i, k);
            pi = pi.sub(pi.mul(decay));
            pi = pi.sub(mi.mul(lrT).div(vi.sqrt().add(epsHat)));
            mi.intoArray(m, mOff + i, k);
            vi.intoArray(v, vOff + i, k);
            pi.intoArray(p, pOff + i, k);
        }
    }

    static void sgd(float[] p, int pOff, float[] g, int gOff, float[] vel, int velOff, int n, float lr,
                    float momentum, boolean nesterov) {
        if (Split.serial(n, VectorElementwise.GRAIN)) {
            sgdRange(p, pOff, g, gOff, vel, velOff, 0, n, lr, momentum, nesterov);
        } else {
            OptimizerArgs r = OptimizerArgs.get();
            r.p = p;
            r.pOff = pOff;
            r.g = g;
            r.gOff = gOff;
            r.velocity = vel;
            r.velocityOff = velOff;
            r.lr = lr;
            r.momentum = momentum;
            r.nesterov = nesterov;
            r.forRange(n, VectorElementwise.GRAIN, Split.CHUNKS_PER_THREAD, (a, i0, i1) ->
                    sgdRange(a.p, a.pOff, a.g, a.gOff, a.velocity, a.velocityOff, i0, i1, a.lr, a.momentum,
                            a.nesterov));
        }
    }

    private static void sgdRange(float[] p, int pOff, float[] g, int gOff, float[] vel, int velOff, int i0, int i1,
                                 float lr, float momentum, boolean nesterov) {
        float velTiny = TinyMoments.sgdVelocity(momentum, nesterov);
        for (int i = i0; i < i1; i += L) {
            VectorMask<Float> k = S.indexInRange(i, i1);
            FloatVector gi = FloatVector.fromArray(S, g, gOff + i, k);
            FloatVector pi = FloatVector.fromArray(S, p, pOff + i, k);
            if (momentum == 0) {
                pi = pi.sub(gi.mul(lr));
            } else {
                FloatVector v0 = FloatVector.fromArray(S, vel, velOff + i, k);
                FloatVector vi = v0.blend(0f, v0.abs().lt(velTiny)).mul(momentum).sub(gi.mul(lr));
                vi.intoArray(vel, velOff + i, k);
                pi = pi.add(nesterov ? vi.mul(momentum).sub(gi.mul(lr)) : vi);
            }
            pi.intoArray(p, pOff + i, k);
        }
    }

    static void rmsprop(float[] p, int pOff, float[] g, int gOff, float[] ms, int msOff, int n, float lr, float rho,
                        float eps) {
        if (Split.serial(n, VectorElementwise.GRAIN)) {
            rmspropRange(p, pOff, g, gOff, ms, msOff, 0, n, lr, rho, eps);
        } else {
            OptimizerArgs r = OptimizerArgs.get();
            r.p = p;
            r.pOff = pOff;
            r.g = g;
            r.gOff = gOff;
            r.meanSquare = ms;
            r.meanSquareOff = msOff;
            r.lr = lr;
            r.rho = rho;
            r.eps = eps;
            r.forRange(n, VectorElementwise.GRAIN, Split.CHUNKS_PER_THREAD, (a, i0, i1) ->
                    rmspropRange(a.p, a.pOff, a.g, a.gOff, a.meanSquare, a.meanSquareOff, i0, i1, a.lr, a.rho,
                            a.eps));
        }
    }

    private static void rmspropRange(float[] p, int pOff, float[] g, int gOff, float[] ms, int msOff, int i0,
                                     int i1, float lr, float rho, float eps) {
        float c = 1 - rho;
        float msTiny = TinyMoments.rmspropMeanSquare(rho);
        for (int i = i0; i < i1; i += L) {
            VectorMask<Float> k = S.indexInRange(i, i1);
            FloatVector gi = FloatVector.fromArray(S, g, gOff + i, k);
            FloatVector s0 = FloatVector.fromArray(S, ms, msOff + i, k);
            FloatVector si = s0.blend(0f, s0.lt(msTiny)).mul(rho).add(gi.mul(c).mul(gi));
            si.intoArray(ms, msOff + i, k);
            FloatVector pi = FloatVector.fromArray(S, p, pOff + i, k);
            pi.sub(gi.mul(lr).div(si.add(eps).sqrt())).intoArray(p, pOff + i, k);
        }
    }
}

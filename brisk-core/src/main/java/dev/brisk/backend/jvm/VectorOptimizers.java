package dev.brisk.backend.jvm;

import dev.brisk.parallel.Parallel;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * The fused optimiser updates, vectorised with the same operation order as {@link ScalarKernels}. The masked tail
 * handles sizes that are not a multiple of the vector length.
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
            Parallel.forRange(n, VectorElementwise.GRAIN, (i0, i1) ->
                    adamRange(p, pOff, g, gOff, m, mOff, v, vOff, i0, i1, lrT, beta1, beta2, epsHat, decay));
        }
    }

    private static void adamRange(float[] p, int pOff, float[] g, int gOff, float[] m, int mOff, float[] v,
                                  int vOff, int i0, int i1, float lrT, float beta1, float beta2, float epsHat,
                                  float decay) {
        float c1 = 1 - beta1;
        float c2 = 1 - beta2;
        for (int i = i0; i < i1; i += L) {
            VectorMask<Float> k = S.indexInRange(i, i1);
            FloatVector gi = FloatVector.fromArray(S, g, gOff + i, k);
            FloatVector mi = FloatVector.fromArray(S, m, mOff + i, k).mul(beta1).add(gi.mul(c1));
            FloatVector vi = FloatVector.fromArray(S, v, vOff + i, k).mul(beta2).add(gi.mul(c2).mul(gi));
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
            Parallel.forRange(n, VectorElementwise.GRAIN, (i0, i1) ->
                    sgdRange(p, pOff, g, gOff, vel, velOff, i0, i1, lr, momentum, nesterov));
        }
    }

    private static void sgdRange(float[] p, int pOff, float[] g, int gOff, float[] vel, int velOff, int i0, int i1,
                                 float lr, float momentum, boolean nesterov) {
        for (int i = i0; i < i1; i += L) {
            VectorMask<Float> k = S.indexInRange(i, i1);
            FloatVector gi = FloatVector.fromArray(S, g, gOff + i, k);
            FloatVector pi = FloatVector.fromArray(S, p, pOff + i, k);
            if (momentum == 0) {
                pi = pi.sub(gi.mul(lr));
            } else {
                FloatVector vi = FloatVector.fromArray(S, vel, velOff + i, k).mul(momentum).sub(gi.mul(lr));
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
            Parallel.forRange(n, VectorElementwise.GRAIN, (i0, i1) ->
                    rmspropRange(p, pOff, g, gOff, ms, msOff, i0, i1, lr, rho, eps));
        }
    }

    private static void rmspropRange(float[] p, int pOff, float[] g, int gOff, float[] ms, int msOff, int i0,
                                     int i1, float lr, float rho, float eps) {
        float c = 1 - rho;
        for (int i = i0; i < i1; i += L) {
            VectorMask<Float> k = S.indexInRange(i, i1);
            FloatVector gi = FloatVector.fromArray(S, g, gOff + i, k);
            FloatVector si = FloatVector.fromArray(S, ms, msOff + i, k).mul(rho).add(gi.mul(c).mul(gi));
            si.intoArray(ms, msOff + i, k);
            FloatVector pi = FloatVector.fromArray(S, p, pOff + i, k);
            pi.sub(gi.mul(lr).div(si.add(eps).sqrt())).intoArray(p, pOff + i, k);
        }
    }
}

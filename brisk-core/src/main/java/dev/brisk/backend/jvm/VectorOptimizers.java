package dev.brisk.backend.jvm;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The fused optimiser updates, vectorised with the same operation order as {@link ScalarKernels}. Each update's
 * loop takes whole vectors with plain loads and stores; the last elements of a chunk that do not fill a vector run
 * through the same loop on zero-padded copies ({@link OptimizerTail}). A loop with a lane mask on every load and
 * store took about a fifth longer in cache and a tenth longer from memory (Adam, one thread, Zen 4). Each element is
 * updated on its own, so a split into several chunks per thread (a slowed thread does fewer of them) gives the same
 * bits.
 *
 * <p>A moment too small for its next products to stay normal floats counts as zero: see {@link TinyMoments}.
 */
final class VectorOptimizers {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    /** Lanes per vector: the updates' loops step by this many elements. */
    static final int L = S.length();

    private VectorOptimizers() {
    }

    static void adam(float[] p, int pOff, float[] g, int gOff, float[] m, int mOff, float[] v, int vOff, int n,
                     float lrT, float beta1, float beta2, float epsHat, float decay) {
        OptimizerArgs r = args(p, pOff, g, gOff, m, mOff, v, vOff, null, 0);
        r.lr = lrT;
        r.beta1 = beta1;
        r.beta2 = beta2;
        r.eps = epsHat;
        r.decay = decay;
        run(n, r, VectorOptimizers::adamRange);
    }

    private static void adamRange(OptimizerArgs a, int i0, int i1) {
        float c1 = 1 - a.beta1;
        float c2 = 1 - a.beta2;
        float mTiny = TinyMoments.adamFirst(a.beta1, a.lr);
        float vTiny = TinyMoments.adamSecond(a.beta2);
        for (int i = i0; i < i1; i += L) {
            FloatVector gi = FloatVector.fromArray(S, a.g, a.gOff + i);
            FloatVector m0 = FloatVector.fromArray(S, a.m, a.mOff + i);
            FloatVector mi = m0.blend(0f, m0.abs().lt(mTiny)).mul(a.beta1).add(gi.mul(c1));
            FloatVector v0 = FloatVector.fromArray(S, a.v, a.vOff + i);
            FloatVector vi = v0.blend(0f, v0.lt(vTiny)).mul(a.beta2).add(gi.mul(c2).mul(gi));
            FloatVector pi = FloatVector.fromArray(S, a.p, a.pOff + i);
            pi = pi.sub(pi.mul(a.decay));
            pi = pi.sub(mi.mul(a.lr).div(vi.sqrt().add(a.eps)));
            mi.intoArray(a.m, a.mOff + i);
            vi.intoArray(a.v, a.vOff + i);
            pi.intoArray(a.p, a.pOff + i);
        }
    }

    static void sgd(float[] p, int pOff, float[] g, int gOff, float[] vel, int velOff, int n, float lr,
                    float momentum, boolean nesterov, float decay) {
        OptimizerArgs r = args(p, pOff, g, gOff, vel, velOff, null, 0, null, 0);
        r.lr = lr;
        r.momentum = momentum;
        r.nesterov = nesterov;
        r.decay = decay;
        run(n, r, VectorOptimizers::sgdRange);
    }

    /** SGD's step; the velocity lives in {@code m}. The decay is skipped at 0 so plain SGD keeps its bits. */
    private static void sgdRange(OptimizerArgs a, int i0, int i1) {
        float lr = a.lr;
        float momentum = a.momentum;
        float velTiny = TinyMoments.sgdVelocity(momentum, a.nesterov);
        for (int i = i0; i < i1; i += L) {
            FloatVector gi = FloatVector.fromArray(S, a.g, a.gOff + i);
            FloatVector pi = FloatVector.fromArray(S, a.p, a.pOff + i);
            if (a.decay != 0) {
                pi = pi.sub(pi.mul(a.decay));
            }
            if (momentum == 0) {
                pi = pi.sub(gi.mul(lr));
            } else {
                FloatVector v0 = FloatVector.fromArray(S, a.m, a.mOff + i);
                FloatVector vi = v0.blend(0f, v0.abs().lt(velTiny)).mul(momentum).sub(gi.mul(lr));
                vi.intoArray(a.m, a.mOff + i);
                pi = pi.add(a.nesterov ? vi.mul(momentum).sub(gi.mul(lr)) : vi);
            }
            pi.intoArray(a.p, a.pOff + i);
        }
    }

    static void rmsprop(float[] p, int pOff, float[] g, int gOff, float[] ms, int msOff, int n, float lr, float rho,
                        float eps) {
        OptimizerArgs r = args(p, pOff, g, gOff, ms, msOff, null, 0, null, 0);
        r.lr = lr;
        r.rho = rho;
        r.eps = eps;
        run(n, r, VectorOptimizers::rmspropRange);
    }

    /** Plain RMSprop's step; the mean square lives in {@code m}. */
    private static void rmspropRange(OptimizerArgs a, int i0, int i1) {
        float c = 1 - a.rho;
        float msTiny = TinyMoments.rmspropMeanSquare(a.rho);
        for (int i = i0; i < i1; i += L) {
            FloatVector gi = FloatVector.fromArray(S, a.g, a.gOff + i);
            FloatVector s0 = FloatVector.fromArray(S, a.m, a.mOff + i);
            FloatVector si = s0.blend(0f, s0.lt(msTiny)).mul(a.rho).add(gi.mul(c).mul(gi));
            si.intoArray(a.m, a.mOff + i);
            FloatVector pi = FloatVector.fromArray(S, a.p, a.pOff + i);
            pi.sub(gi.mul(a.lr).div(si.add(a.eps).sqrt())).intoArray(a.p, a.pOff + i);
        }
    }

    // ---- Every optimizer below follows ScalarKernels' order, each decaying moment flushed below the same
    // TinyMoments threshold

    /** {@code x}, with the lanes below {@code tiny} in magnitude made 0 ({@link TinyMoments#flush}). */
    private static FloatVector flush(FloatVector x, float tiny) {
        return x.blend(0f, x.abs().lt(tiny));
    }

    /**
     * Runs {@code range} (a loop over whole vectors) over [0, n), split over the pool when {@code n} is large
     * enough; either way the thread's holder drops its array references afterwards.
     */
    private static void run(int n, OptimizerArgs a, RegionTask.Body<OptimizerArgs> range) {
        a.vectors = range;
        if (Split.serial(n, VectorElementwise.GRAIN)) {
            try {
                chunk(a, 0, n);
            } finally {
                a.clearReferences();
            }
        } else {
            a.forRange(n, VectorElementwise.GRAIN, Split.CHUNKS_PER_THREAD, VectorOptimizers::chunk);
        }
    }

    /** Elements {@code [i0, i1)}: the whole vectors in the update's loop, the rest on padded copies. */
    private static void chunk(OptimizerArgs a, int i0, int i1) {
        int full = i0 + (i1 - i0) / L * L;
        a.vectors.run(a, i0, full);
        if (full < i1) {
            OptimizerTail.run(a, full, i1);
        }
    }

    private static OptimizerArgs args(float[] p, int pOff, float[] g, int gOff, float[] m, int mOff, float[] v,
                                      int vOff, float[] w, int wOff) {
        OptimizerArgs r = OptimizerArgs.get();
        r.p = p;
        r.pOff = pOff;
        r.g = g;
        r.gOff = gOff;
        r.m = m;
        r.mOff = mOff;
        r.v = v;
        r.vOff = vOff;
        r.w = w;
        r.wOff = wOff;
        return r;
    }

    static void adagrad(float[] p, int pOff, float[] g, int gOff, float[] acc, int accOff, int n, float lr, float eps,
                        float decay) {
        OptimizerArgs r = args(p, pOff, g, gOff, acc, accOff, null, 0, null, 0);
        r.lr = lr;
        r.eps = eps;
        r.decay = decay;
        run(n, r, VectorOptimizers::adagradRange);
    }

    private static void adagradRange(OptimizerArgs a, int i0, int i1) {
        for (int i = i0; i < i1; i += L) {
            FloatVector gi = FloatVector.fromArray(S, a.g, a.gOff + i);
            FloatVector acc = FloatVector.fromArray(S, a.m, a.mOff + i).add(gi.mul(gi));
            acc.intoArray(a.m, a.mOff + i);
            FloatVector pi = FloatVector.fromArray(S, a.p, a.pOff + i);
            pi = pi.sub(pi.mul(a.decay));
            pi.sub(gi.mul(a.lr).div(acc.add(a.eps).sqrt())).intoArray(a.p, a.pOff + i);
        }
    }

    static void adadelta(float[] p, int pOff, float[] g, int gOff, float[] ag, int agOff, float[] ad, int adOff,
                         int n, float lr, float rho, float eps, float decay) {
        OptimizerArgs r = args(p, pOff, g, gOff, ag, agOff, ad, adOff, null, 0);
        r.lr = lr;
        r.rho = rho;
        r.eps = eps;
        r.decay = decay;
        run(n, r, VectorOptimizers::adadeltaRange);
    }

    private static void adadeltaRange(OptimizerArgs a, int i0, int i1) {
        float c = 1 - a.rho;
        float tiny = TinyMoments.decaying(a.rho);
        for (int i = i0; i < i1; i += L) {
            FloatVector gi = FloatVector.fromArray(S, a.g, a.gOff + i);
            FloatVector ag = flush(FloatVector.fromArray(S, a.m, a.mOff + i), tiny).mul(a.rho)
                    .add(gi.mul(c).mul(gi));
            ag.intoArray(a.m, a.mOff + i);
            FloatVector d0 = flush(FloatVector.fromArray(S, a.v, a.vOff + i), tiny);
            FloatVector delta = d0.add(a.eps).sqrt().neg().mul(gi).div(ag.add(a.eps).sqrt());
            d0.mul(a.rho).add(delta.mul(c).mul(delta)).intoArray(a.v, a.vOff + i);
            FloatVector pi = FloatVector.fromArray(S, a.p, a.pOff + i);
            pi = pi.sub(pi.mul(a.decay));
            pi.add(delta.mul(a.lr)).intoArray(a.p, a.pOff + i);
        }
    }

    static void adamax(float[] p, int pOff, float[] g, int gOff, float[] m, int mOff, float[] u, int uOff, int n,
                       float lrT, float beta1, float beta2, float eps, float decay) {
        OptimizerArgs r = args(p, pOff, g, gOff, m, mOff, u, uOff, null, 0);
        r.lr = lrT;
        r.beta1 = beta1;
        r.beta2 = beta2;
        r.eps = eps;
        r.decay = decay;
        run(n, r, VectorOptimizers::adamaxRange);
    }

    private static void adamaxRange(OptimizerArgs a, int i0, int i1) {
        float c = 1 - a.beta1;
        float mTiny = TinyMoments.adamFirst(a.beta1, a.lr);
        float uTiny = TinyMoments.decaying(a.beta2);
        for (int i = i0; i < i1; i += L) {
            FloatVector gi = FloatVector.fromArray(S, a.g, a.gOff + i);
            FloatVector m0 = flush(FloatVector.fromArray(S, a.m, a.mOff + i), mTiny);
            FloatVector mi = m0.add(gi.sub(m0).mul(c));
            FloatVector ui = flush(FloatVector.fromArray(S, a.v, a.vOff + i), uTiny).mul(a.beta2).max(gi.abs());
            mi.intoArray(a.m, a.mOff + i);
            ui.intoArray(a.v, a.vOff + i);
            FloatVector pi = FloatVector.fromArray(S, a.p, a.pOff + i);
            pi = pi.sub(pi.mul(a.decay));
            pi.sub(mi.mul(a.lr).div(ui.add(a.eps))).intoArray(a.p, a.pOff + i);
        }
    }

    static void nadam(float[] p, int pOff, float[] g, int gOff, float[] m, int mOff, float[] v, int vOff, int n,
                      float mRate, float gRate, float vCorrection, float beta1, float beta2, float eps, float decay) {
        OptimizerArgs r = args(p, pOff, g, gOff, m, mOff, v, vOff, null, 0);
        r.mRate = mRate;
        r.gRate = gRate;
        r.vCorrection = vCorrection;
        r.beta1 = beta1;
        r.beta2 = beta2;
        r.eps = eps;
        r.decay = decay;
        run(n, r, VectorOptimizers::adamMomentsRange);
    }

    /**
     * Nadam's and AMSGrad's shared step: the same first and second moments, then AMSGrad's (its largest second
     * moments {@code w} are set) or Nadam's denominator and step.
     */
    private static void adamMomentsRange(OptimizerArgs a, int i0, int i1) {
        boolean ams = a.w != null;
        float c1 = 1 - a.beta1;
        float c2 = 1 - a.beta2;
        float mTiny = TinyMoments.adamFirst(a.beta1, ams ? a.lr : a.mRate);
        float vTiny = TinyMoments.decaying(a.beta2);
        for (int i = i0; i < i1; i += L) {
            FloatVector gi = FloatVector.fromArray(S, a.g, a.gOff + i);
            FloatVector m0 = flush(FloatVector.fromArray(S, a.m, a.mOff + i), mTiny);
            FloatVector v0 = flush(FloatVector.fromArray(S, a.v, a.vOff + i), vTiny);
            FloatVector mi = m0.add(gi.sub(m0).mul(c1));
            FloatVector vi = v0.add(gi.mul(gi).sub(v0).mul(c2));
            mi.intoArray(a.m, a.mOff + i);
            vi.intoArray(a.v, a.vOff + i);
            FloatVector pi = FloatVector.fromArray(S, a.p, a.pOff + i);
            pi = pi.sub(pi.mul(a.decay));
            FloatVector step;
            if (ams) {
                FloatVector hi = FloatVector.fromArray(S, a.w, a.wOff + i).max(vi);
                hi.intoArray(a.w, a.wOff + i);
                step = mi.mul(a.lr).div(hi.sqrt().add(a.eps));
            } else {
                step = mi.mul(a.mRate).add(gi.mul(a.gRate)).div(vi.mul(a.vCorrection).sqrt().add(a.eps));
            }
            pi.sub(step).intoArray(a.p, a.pOff + i);
        }
    }

    static void lion(float[] p, int pOff, float[] g, int gOff, float[] m, int mOff, int n, float lr, float beta1,
                     float beta2, float decay) {
        OptimizerArgs r = args(p, pOff, g, gOff, m, mOff, null, 0, null, 0);
        r.lr = lr;
        r.beta1 = beta1;
        r.beta2 = beta2;
        r.decay = decay;
        run(n, r, VectorOptimizers::lionRange);
    }

    private static void lionRange(OptimizerArgs a, int i0, int i1) {
        float c1 = 1 - a.beta1;
        float c2 = 1 - a.beta2;
        float mTiny = TinyMoments.decaying(Math.min(a.beta1, a.beta2));
        for (int i = i0; i < i1; i += L) {
            FloatVector gi = FloatVector.fromArray(S, a.g, a.gOff + i);
            FloatVector m0 = flush(FloatVector.fromArray(S, a.m, a.mOff + i), mTiny);
            FloatVector c = m0.mul(a.beta1).add(gi.mul(c1));
            // sign(c): +1, -1, or 0 (Keras' ops.sign; a NaN stays NaN through the zero blend as in Math.signum)
            FloatVector sign = c.blend(1f, c.compare(jdk.incubator.vector.VectorOperators.GT, 0f))
                    .blend(-1f, c.compare(jdk.incubator.vector.VectorOperators.LT, 0f));
            FloatVector pi = FloatVector.fromArray(S, a.p, a.pOff + i);
            pi = pi.sub(pi.mul(a.decay));
            pi.sub(sign.mul(a.lr)).intoArray(a.p, a.pOff + i);
            m0.mul(a.beta2).add(gi.mul(c2)).intoArray(a.m, a.mOff + i);
        }
    }

    static void amsgrad(float[] p, int pOff, float[] g, int gOff, float[] m, int mOff, float[] v, int vOff,
                        float[] vHat, int vHatOff, int n, float lrT, float beta1, float beta2, float epsHat,
                        float decay) {
        OptimizerArgs r = args(p, pOff, g, gOff, m, mOff, v, vOff, vHat, vHatOff);
        r.lr = lrT;
        r.beta1 = beta1;
        r.beta2 = beta2;
        r.eps = epsHat;
        r.decay = decay;
        run(n, r, VectorOptimizers::adamMomentsRange);
    }

    static void rmspropFull(float[] p, int pOff, float[] g, int gOff, float[] ms, int msOff, float[] mom, int momOff,
                            float[] mg, int mgOff, int n, float lr, float rho, float momentum, float eps,
                            float decay) {
        OptimizerArgs r = args(p, pOff, g, gOff, ms, msOff, mom, momOff, mg, mgOff);
        r.lr = lr;
        r.rho = rho;
        r.momentum = momentum;
        r.eps = eps;
        r.decay = decay;
        run(n, r, VectorOptimizers::rmspropFullRange);
    }

    private static void rmspropFullRange(OptimizerArgs a, int i0, int i1) {
        float c = 1 - a.rho;
        float tiny = TinyMoments.decaying(a.rho);
        float momTiny = TinyMoments.decaying(a.momentum);
        for (int i = i0; i < i1; i += L) {
            FloatVector gi = FloatVector.fromArray(S, a.g, a.gOff + i);
            FloatVector si = flush(FloatVector.fromArray(S, a.m, a.mOff + i), tiny).mul(a.rho)
                    .add(gi.mul(c).mul(gi));
            si.intoArray(a.m, a.mOff + i);
            FloatVector den;
            if (a.w != null) {
                FloatVector ai = flush(FloatVector.fromArray(S, a.w, a.wOff + i), tiny).mul(a.rho)
                        .add(gi.mul(c));
                ai.intoArray(a.w, a.wOff + i);
                den = si.sub(ai.mul(ai)).add(a.eps);
            } else {
                den = si.add(a.eps);
            }
            FloatVector inc = gi.mul(a.lr).div(den.sqrt());
            FloatVector pi = FloatVector.fromArray(S, a.p, a.pOff + i);
            pi = pi.sub(pi.mul(a.decay));
            if (a.v != null) {
                FloatVector mo = flush(FloatVector.fromArray(S, a.v, a.vOff + i), momTiny).mul(a.momentum)
                        .add(inc);
                mo.intoArray(a.v, a.vOff + i);
                pi = pi.sub(mo);
            } else {
                pi = pi.sub(inc);
            }
            pi.intoArray(a.p, a.pOff + i);
        }
    }

    static void ftrl(float[] p, int pOff, float[] g, int gOff, float[] acc, int accOff, float[] lin, int linOff,
                     int n, float lr, float power, float l1, float twoL2, float shrinkage2, float decay) {
        OptimizerArgs r = args(p, pOff, g, gOff, acc, accOff, lin, linOff, null, 0);
        r.lr = lr;
        r.power = power;
        r.l1 = l1;
        r.twoL2 = twoL2;
        r.shrinkage2 = shrinkage2;
        r.decay = decay;
        run(n, r, VectorOptimizers::ftrlRange);
    }

    /**
     * FTRL's step in ScalarKernels' order: the accumulator in {@code m}, the linear term in {@code v}. A power other
     * than -0.5 (a square root) or 0 has no correctly rounded vector form, so it runs the scalar loop, which keeps
     * the two kernels' bits equal.
     */
    private static void ftrlRange(OptimizerArgs a, int i0, int i1) {
        if (a.power != -0.5f && a.power != 0f) {
            ScalarKernels.ftrlRange(a.p, a.pOff, a.g, a.gOff, a.m, a.mOff, a.v, a.vOff, i0, i1, a.lr, a.power, a.l1,
                    a.twoL2, a.shrinkage2, a.decay);
            return;
        }
        boolean root = a.power == -0.5f;
        for (int i = i0; i < i1; i += L) {
            FloatVector gi = FloatVector.fromArray(S, a.g, a.gOff + i);
            FloatVector pi = FloatVector.fromArray(S, a.p, a.pOff + i);
            pi = pi.sub(pi.mul(a.decay));
            FloatVector a0 = FloatVector.fromArray(S, a.m, a.mOff + i);
            FloatVector a1 = a0.add(gi.mul(gi));
            FloatVector r1 = root ? a1.sqrt() : FloatVector.broadcast(S, 1f);
            FloatVector r0 = root ? a0.sqrt() : FloatVector.broadcast(S, 1f);
            FloatVector l = FloatVector.fromArray(S, a.v, a.vOff + i)
                    .add(gi.add(pi.mul(a.shrinkage2)).sub(r1.sub(r0).div(a.lr).mul(pi)));
            l.intoArray(a.v, a.vOff + i);
            FloatVector quadratic = r1.div(a.lr).add(a.twoL2);
            l.max(-a.l1).min(a.l1).sub(l).div(quadratic).intoArray(a.p, a.pOff + i);
            a1.intoArray(a.m, a.mOff + i);
        }
    }
}

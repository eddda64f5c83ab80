package dev.brisk.backend.jvm;

import dev.brisk.backend.RecurrentGates;
import dev.brisk.ops.UnaryFn;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The gate passes of the recurrent kernels in the Vector API ({@link VectorMath}'s sigmoid and tanh), a step's rows
 * split over the compute threads; every element is computed from its own inputs alone, so the split changes no
 * bits. Each transcendental function runs in {@code VectorUnaryLoops}' loop of its own over a row's block (a
 * loop body holding several would exceed C2's inlining budget and box its vectors),
 * and the arithmetic that combines the gates in plain loops after it; the elements past a row's last whole vector
 * are computed in scalar code with {@link StrictMath}.
 */
final class VectorRecurrentGates implements RecurrentGates {
    /** The one instance. */
    static final VectorRecurrentGates INSTANCE = new VectorRecurrentGates();
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    /** Gate values per chunk at least, so that a small step runs on the calling thread. */
    private static final int GRAIN_VALUES = 8192;
    private static final RegionTask.Body<RecurrentArgs> SIMPLE_FORWARD = VectorRecurrentGates::simpleForwardRows;
    private static final RegionTask.Body<RecurrentArgs> LSTM_FORWARD = VectorRecurrentGates::lstmForwardRows;
    private static final RegionTask.Body<RecurrentArgs> GRU_FORWARD = VectorRecurrentGates::gruForwardRows;
    private static final RegionTask.Body<RecurrentArgs> SIMPLE_BACKWARD = VectorRecurrentGates::simpleBackwardRows;
    private static final RegionTask.Body<RecurrentArgs> LSTM_BACKWARD = VectorRecurrentGates::lstmBackwardRows;
    private static final RegionTask.Body<RecurrentArgs> GRU_BACKWARD = VectorRecurrentGates::gruBackwardRows;

    private VectorRecurrentGates() {
    }

    private static RecurrentArgs args(float[] st, float[] sc, int b, int n) {
        RecurrentArgs a = RecurrentArgs.get();
        a.st = st;
        a.sc = sc;
        a.b = b;
        a.n = n;
        return a;
    }

    private static void run(RecurrentArgs a, int gates, RegionTask.Body<RecurrentArgs> body) {
        a.forRange(a.b, Math.max(1, GRAIN_VALUES / (gates * a.n)), 2, body);
    }

    /** {@code a[i] = sigmoid(a[i])} for {@code len} floats from {@code off}. */
    private static void sigmoid(float[] a, int off, int len) {
        int full = S.loopBound(len);
        VectorUnaryLoops.apply(UnaryFn.SIGMOID, 0f, a, off, a, off, full);
        for (int j = full; j < len; j++) {
            a[off + j] = (float) (1.0 / (1.0 + StrictMath.exp(-a[off + j])));
        }
    }

    /** {@code y[i] = tanh(x[i])} for {@code len} floats. */
    private static void tanh(float[] x, int xo, float[] y, int yo, int len) {
        int full = S.loopBound(len);
        VectorUnaryLoops.apply(UnaryFn.TANH, 0f, x, xo, y, yo, full);
        for (int j = full; j < len; j++) {
            y[yo + j] = (float) StrictMath.tanh(x[xo + j]);
        }
    }

    @Override
    public void simpleForward(float[] st, int gs, int hNext, int b, int n) {
        RecurrentArgs a = args(st, null, b, n);
        a.gs = gs;
        a.hNext = hNext;
        run(a, 1, SIMPLE_FORWARD);
    }

    private static void simpleForwardRows(RecurrentArgs a, int from, int to) {
        int off = from * a.n;
        int len = (to - from) * a.n;
        tanh(a.st, a.gs + off, a.st, a.gs + off, len);
        System.arraycopy(a.st, a.gs + off, a.st, a.hNext + off, len);
    }

    @Override
    public void lstmForward(float[] st, int gs, int cPrev, int hNext, int b, int n) {
        RecurrentArgs a = args(st, null, b, n);
        a.gs = gs;
        a.cPrev = cPrev;
        a.hNext = hNext;
        run(a, 4, LSTM_FORWARD);
    }

    private static void lstmForwardRows(RecurrentArgs a, int from, int to) {
        float[] st = a.st;
        int n = a.n;
        int cNext = a.cPrev + a.b * n;
        int full = S.loopBound(n);
        for (int r = from; r < to; r++) {
            int row = a.gs + r * 4 * n;
            int at = r * n;
            sigmoid(st, row, 2 * n);
            tanh(st, row + 2 * n, st, row + 2 * n, n);
            sigmoid(st, row + 3 * n, n);
            for (int j = 0; j < full; j += L) {
                FloatVector i = FloatVector.fromArray(S, st, row + j);
                FloatVector f = FloatVector.fromArray(S, st, row + n + j);
                FloatVector c = FloatVector.fromArray(S, st, row + 2 * n + j);
                f.mul(FloatVector.fromArray(S, st, a.cPrev + at + j)).add(i.mul(c)).intoArray(st, cNext + at + j);
            }
            for (int j = full; j < n; j++) {
                st[cNext + at + j] = st[row + n + j] * st[a.cPrev + at + j] + st[row + j] * st[row + 2 * n + j];
            }
            tanh(st, cNext + at, st, a.hNext + at, n);
            for (int j = 0; j < full; j += L) {
                FloatVector o = FloatVector.fromArray(S, st, row + 3 * n + j);
                o.mul(FloatVector.fromArray(S, st, a.hNext + at + j)).intoArray(st, a.hNext + at + j);
            }
            for (int j = full; j < n; j++) {
                st[a.hNext + at + j] *= st[row + 3 * n + j];
            }
        }
    }

    @Override
    public void gruForward(float[] st, int gs, int product, float[] bias, int recBias, int candidate, int hPrev,
                           int b, int n) {
        RecurrentArgs a = args(st, null, b, n);
        a.gs = gs;
        a.product = product;
        a.bias = bias;
        a.recBias = recBias;
        a.candidate = candidate;
        a.hPrev = hPrev;
        run(a, 3, GRU_FORWARD);
    }

    private static void gruForwardRows(RecurrentArgs a, int from, int to) {
        float[] st = a.st;
        float[] bias = a.bias;
        int n = a.n;
        int rb = a.recBias;
        int hNext = a.hPrev + a.b * n;
        int full = S.loopBound(n);
        for (int r = from; r < to; r++) {
            int row = a.gs + r * 3 * n;
            int prow = a.product + r * 3 * n;
            int at = r * n;
            // z and r pre-activations in place; the recurrent candidate part to its slot
            for (int j = 0; j < 2 * n; j++) {
                st[row + j] += st[prow + j] + bias[rb + j];
            }
            for (int j = 0; j < n; j++) {
                st[a.candidate + at + j] = st[prow + 2 * n + j] + bias[rb + 2 * n + j];
            }
            sigmoid(st, row, 2 * n);
            for (int j = 0; j < full; j += L) {
                FloatVector reset = FloatVector.fromArray(S, st, row + n + j);
                FloatVector part = FloatVector.fromArray(S, st, a.candidate + at + j);
                reset.fma(part, FloatVector.fromArray(S, st, row + 2 * n + j)).intoArray(st, row + 2 * n + j);
            }
            for (int j = full; j < n; j++) {
                st[row + 2 * n + j] = st[row + n + j] * st[a.candidate + at + j] + st[row + 2 * n + j];
            }
            tanh(st, row + 2 * n, st, row + 2 * n, n);
            for (int j = 0; j < full; j += L) {
                FloatVector z = FloatVector.fromArray(S, st, row + j);
                FloatVector hh = FloatVector.fromArray(S, st, row + 2 * n + j);
                FloatVector h = z.mul(FloatVector.fromArray(S, st, a.hPrev + at + j)).add(z.neg().add(1f).mul(hh));
                h.intoArray(st, hNext + at + j);
            }
            for (int j = full; j < n; j++) {
                float z = st[row + j];
                st[hNext + at + j] = z * st[a.hPrev + at + j] + (1f - z) * st[row + 2 * n + j];
            }
        }
    }

    @Override
    public void simpleBackward(float[] st, int gs, float[] sc, int dh, int dgs, int b, int n) {
        RecurrentArgs a = args(st, sc, b, n);
        a.gs = gs;
        a.dh = dh;
        a.dgs = dgs;
        run(a, 1, SIMPLE_BACKWARD);
    }

    private static void simpleBackwardRows(RecurrentArgs a, int from, int to) {
        float[] st = a.st;
        float[] sc = a.sc;
        int off = from * a.n;
        int len = (to - from) * a.n;
        int full = S.loopBound(len);
        for (int j = off; j < off + full; j += L) {
            FloatVector h = FloatVector.fromArray(S, st, a.gs + j);
            FloatVector d = FloatVector.fromArray(S, sc, a.dh + j);
            d.mul(h.mul(h).neg().add(1f)).intoArray(sc, a.dgs + j);
        }
        for (int j = off + full; j < off + len; j++) {
            float h = st[a.gs + j];
            sc[a.dgs + j] = sc[a.dh + j] * (1f - h * h);
        }
    }

    @Override
    public void lstmBackward(float[] st, int gs, int cPrev, float[] sc, int dh, int dc, int dgs, int b, int n) {
        RecurrentArgs a = args(st, sc, b, n);
        a.gs = gs;
        a.cPrev = cPrev;
        a.dh = dh;
        a.dc = dc;
        a.dgs = dgs;
        run(a, 4, LSTM_BACKWARD);
    }

    private static void lstmBackwardRows(RecurrentArgs a, int from, int to) {
        float[] st = a.st;
        float[] sc = a.sc;
        int n = a.n;
        int cNext = a.cPrev + a.b * n;
        int full = S.loopBound(n);
        for (int r = from; r < to; r++) {
            int row = a.gs + r * 4 * n;
            int drow = a.dgs + r * 4 * n;
            int at = r * n;
            // tanh(c) goes first into the output gate's gradient slot, which the loop below reads, then overwrites.
            tanh(st, cNext + at, sc, drow + 3 * n, n);
            for (int j = 0; j < full; j += L) {
                FloatVector i = FloatVector.fromArray(S, st, row + j);
                FloatVector f = FloatVector.fromArray(S, st, row + n + j);
                FloatVector c = FloatVector.fromArray(S, st, row + 2 * n + j);
                FloatVector o = FloatVector.fromArray(S, st, row + 3 * n + j);
                FloatVector tc = FloatVector.fromArray(S, sc, drow + 3 * n + j);
                FloatVector dhv = FloatVector.fromArray(S, sc, a.dh + at + j);
                FloatVector dcv = FloatVector.fromArray(S, sc, a.dc + at + j)
                        .add(dhv.mul(o).mul(tc.mul(tc).neg().add(1f)));
                dcv.mul(c).mul(i).mul(i.neg().add(1f)).intoArray(sc, drow + j);
                dcv.mul(FloatVector.fromArray(S, st, a.cPrev + at + j)).mul(f).mul(f.neg().add(1f))
                        .intoArray(sc, drow + n + j);
                dcv.mul(i).mul(c.mul(c).neg().add(1f)).intoArray(sc, drow + 2 * n + j);
                dhv.mul(tc).mul(o).mul(o.neg().add(1f)).intoArray(sc, drow + 3 * n + j);
                dcv.mul(f).intoArray(sc, a.dc + at + j);
            }
            for (int j = full; j < n; j++) {
                float i = st[row + j];
                float f = st[row + n + j];
                float c = st[row + 2 * n + j];
                float o = st[row + 3 * n + j];
                float tc = sc[drow + 3 * n + j];
                float dhv = sc[a.dh + at + j];
                float dcv = sc[a.dc + at + j] + dhv * o * (1f - tc * tc);
                sc[drow + j] = dcv * c * i * (1f - i);
                sc[drow + n + j] = dcv * st[a.cPrev + at + j] * f * (1f - f);
                sc[drow + 2 * n + j] = dcv * i * (1f - c * c);
                sc[drow + 3 * n + j] = dhv * tc * o * (1f - o);
                sc[a.dc + at + j] = dcv * f;
            }
        }
    }

    @Override
    public void gruBackward(float[] st, int gs, int candidate, int hPrev, float[] sc, int dh, int dgs, int drs,
                            int b, int n) {
        RecurrentArgs a = args(st, sc, b, n);
        a.gs = gs;
        a.candidate = candidate;
        a.hPrev = hPrev;
        a.dh = dh;
        a.dgs = dgs;
        a.drs = drs;
        run(a, 3, GRU_BACKWARD);
    }

    private static void gruBackwardRows(RecurrentArgs a, int from, int to) {
        float[] st = a.st;
        float[] sc = a.sc;
        int n = a.n;
        int full = S.loopBound(n);
        for (int r = from; r < to; r++) {
            int row = a.gs + r * 3 * n;
            int drow = a.dgs + r * 3 * n;
            int rrow = a.drs + r * 3 * n;
            int at = r * n;
            for (int j = 0; j < full; j += L) {
                FloatVector z = FloatVector.fromArray(S, st, row + j);
                FloatVector reset = FloatVector.fromArray(S, st, row + n + j);
                FloatVector hh = FloatVector.fromArray(S, st, row + 2 * n + j);
                FloatVector part = FloatVector.fromArray(S, st, a.candidate + at + j);
                FloatVector dhv = FloatVector.fromArray(S, sc, a.dh + at + j);
                FloatVector oneMinusZ = z.neg().add(1f);
                FloatVector dz = dhv.mul(FloatVector.fromArray(S, st, a.hPrev + at + j).sub(hh)).mul(z)
                        .mul(oneMinusZ);
                FloatVector dCand = dhv.mul(oneMinusZ).mul(hh.mul(hh).neg().add(1f));
                FloatVector dReset = dCand.mul(part).mul(reset).mul(reset.neg().add(1f));
                dz.intoArray(sc, drow + j);
                dReset.intoArray(sc, drow + n + j);
                dCand.intoArray(sc, drow + 2 * n + j);
                dz.intoArray(sc, rrow + j);
                dReset.intoArray(sc, rrow + n + j);
                dCand.mul(reset).intoArray(sc, rrow + 2 * n + j);
                dhv.mul(z).intoArray(sc, a.dh + at + j);
            }
            for (int j = full; j < n; j++) {
                float z = st[row + j];
                float reset = st[row + n + j];
                float hh = st[row + 2 * n + j];
                float dhv = sc[a.dh + at + j];
                float dz = dhv * (st[a.hPrev + at + j] - hh) * z * (1f - z);
                float dCand = dhv * (1f - z) * (1f - hh * hh);
                float dReset = dCand * st[a.candidate + at + j] * reset * (1f - reset);
                sc[drow + j] = dz;
                sc[drow + n + j] = dReset;
                sc[drow + 2 * n + j] = dCand;
                sc[rrow + j] = dz;
                sc[rrow + n + j] = dReset;
                sc[rrow + 2 * n + j] = dCand * reset;
                sc[a.dh + at + j] = dhv * z;
            }
        }
    }
}

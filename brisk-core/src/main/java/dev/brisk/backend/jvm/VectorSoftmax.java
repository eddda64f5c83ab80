package dev.brisk.backend.jvm;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/** Row-wise softmax and log-softmax and their backward passes, vectorised along rows, split by rows. */
final class VectorSoftmax {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();

    private VectorSoftmax() {
    }

    static void forward(boolean log, float[] x, int xOff, float[] y, int yOff, int rows, int cols) {
        int grain = Math.max(1, VectorElementwise.GRAIN / Math.max(1, cols));
        if (Split.serial(rows, grain)) {
            forwardRows(log, x, xOff, y, yOff, 0, rows, cols);
        } else {
            RegionArgs r = rowArgs(log, x, xOff, y, yOff, cols);
            r.forRange(rows, grain, (a, r0, r1) -> forwardRows(a.b0, a.f0, a.i0, a.f1, a.i1, r0, r1, a.i2));
        }
    }

    static void backward(boolean log, float[] y, int yOff, float[] dy, int dyOff, float[] dx, int dxOff, int rows,
                         int cols) {
        int grain = Math.max(1, VectorElementwise.GRAIN / Math.max(1, cols));
        if (Split.serial(rows, grain)) {
            backwardRows(log, y, yOff, dy, dyOff, dx, dxOff, 0, rows, cols);
        } else {
            RegionArgs r = rowArgs(log, y, yOff, dy, dyOff, cols);
            r.f2 = dx;
            r.i3 = dxOff;
            r.forRange(rows, grain, (a, r0, r1) ->
                    backwardRows(a.b0, a.f0, a.i0, a.f1, a.i1, a.f2, a.i3, r0, r1, a.i2));
        }
    }

    private static RegionArgs rowArgs(boolean log, float[] first, int firstOff, float[] second, int secondOff,
                                      int cols) {
        RegionArgs r = RegionArgs.get();
        r.b0 = log;
        r.f0 = first;
        r.i0 = firstOff;
        r.f1 = second;
        r.i1 = secondOff;
        r.i2 = cols;
        return r;
    }

    private static void forwardRows(boolean log, float[] x, int xOff, float[] y, int yOff, int r0, int r1,
                                    int cols) {
        for (int r = r0; r < r1; r++) {
            forwardRow(log, x, xOff + r * cols, y, yOff + r * cols, cols);
        }
    }

    private static void backwardRows(boolean log, float[] y, int yOff, float[] dy, int dyOff, float[] dx,
                                     int dxOff, int r0, int r1, int cols) {
        for (int r = r0; r < r1; r++) {
            backwardRow(log, y, yOff + r * cols, dy, dyOff + r * cols, dx, dxOff + r * cols, cols);
        }
    }

    // One method per row keeps each piece of vector code small and called often, so it is compiled early and
    // whole (vectors crossing into not-yet-compiled code are boxed). Each loop runs to the end with a mask rather
    // than ending with a separate tail, so that exp has one call site, hot enough to be inlined. The sums are added
    // in element order, so a row's result does not depend on the vector width or on what the JIT has compiled.

    private static void forwardRow(boolean log, float[] x, int xi, float[] y, int yi, int cols) {
        FloatVector maxV = FloatVector.broadcast(S, Float.NEGATIVE_INFINITY);
        for (int j = 0; j < cols; j += L) {
            VectorMask<Float> m = S.indexInRange(j, cols);
            maxV = maxV.lanewise(VectorOperators.MAX, FloatVector.fromArray(S, x, xi + j, m), m);
        }
        float max = maxV.reduceLanes(VectorOperators.MAX);
        // e = exp(x - max) goes to y first: softmax scales it in place, log-softmax only needs its sum.
        for (int j = 0; j < cols; j += L) {
            VectorMask<Float> m = S.indexInRange(j, cols);
            VectorMath.exp(FloatVector.fromArray(S, x, xi + j, m).sub(max)).intoArray(y, yi + j, m);
        }
        float sum = 0f;
        for (int j = 0; j < cols; j++) {
            sum += y[yi + j];
        }
        if (log) {
            float shift = max + (float) Math.log(sum);
            for (int j = 0; j < cols; j += L) {
                VectorMask<Float> m = S.indexInRange(j, cols);
                FloatVector.fromArray(S, x, xi + j, m).sub(shift).intoArray(y, yi + j, m);
            }
        } else {
            float inv = 1 / sum;
            for (int j = 0; j < cols; j += L) {
                VectorMask<Float> m = S.indexInRange(j, cols);
                FloatVector.fromArray(S, y, yi + j, m).mul(inv).intoArray(y, yi + j, m);
            }
        }
    }

    /** softmax: {@code dx = y (dy - s)}, {@code s = sum(dy y)}; log-softmax: {@code dx = dy - exp(y) s}, {@code s = sum(dy)}. */
    private static void backwardRow(boolean log, float[] y, int yi, float[] dy, int gi, float[] dx, int xi,
                                    int cols) {
        float s = 0f;
        for (int j = 0; j < cols; j++) {
            s += log ? dy[gi + j] : dy[gi + j] * y[yi + j];
        }
        for (int j = 0; j < cols; j += L) {
            VectorMask<Float> m = S.indexInRange(j, cols);
            FloatVector yv = FloatVector.fromArray(S, y, yi + j, m);
            FloatVector g = FloatVector.fromArray(S, dy, gi + j, m);
            FloatVector d = log ? g.sub(VectorMath.exp(yv).mul(s)) : yv.mul(g.sub(s));
            d.intoArray(dx, xi + j, m);
        }
    }
}

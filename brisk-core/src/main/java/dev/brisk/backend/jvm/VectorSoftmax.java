package dev.brisk.backend.jvm;

import dev.brisk.parallel.Parallel;
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
            Parallel.forRange(rows, grain, (r0, r1) -> forwardRows(log, x, xOff, y, yOff, r0, r1, cols));
        }
    }

    static void backward(boolean log, float[] y, int yOff, float[] dy, int dyOff, float[] dx, int dxOff, int rows,
                         int cols) {
        int grain = Math.max(1, VectorElementwise.GRAIN / Math.max(1, cols));
        if (Split.serial(rows, grain)) {
            backwardRows(log, y, yOff, dy, dyOff, dx, dxOff, 0, rows, cols);
        } else {
            Parallel.forRange(rows, grain, (r0, r1) -> backwardRows(log, y, yOff, dy, dyOff, dx, dxOff, r0, r1,
                    cols));
        }
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
    // whole (vectors crossing into not-yet-compiled code are boxed).

    private static void forwardRow(boolean log, float[] x, int xi, float[] y, int yi, int cols) {
        int upper = S.loopBound(cols);
        VectorMask<Float> tail = S.indexInRange(upper, cols);
        FloatVector maxV = FloatVector.broadcast(S, Float.NEGATIVE_INFINITY);
        int j = 0;
        for (; j < upper; j += L) {
            maxV = maxV.max(FloatVector.fromArray(S, x, xi + j));
        }
        if (j < cols) {
            maxV = maxV.lanewise(VectorOperators.MAX, FloatVector.fromArray(S, x, xi + j, tail), tail);
        }
        float max = maxV.reduceLanes(VectorOperators.MAX);
        // e = exp(x - max), stored in y for softmax; the sum is needed by both forms.
        FloatVector sumV = FloatVector.zero(S);
        for (j = 0; j < upper; j += L) {
            FloatVector e = FloatVector.fromArray(S, x, xi + j).sub(max).lanewise(VectorOperators.EXP);
            sumV = sumV.add(e);
            if (!log) {
                e.intoArray(y, yi + j);
            }
        }
        if (j < cols) {
            FloatVector e = FloatVector.fromArray(S, x, xi + j, tail).sub(max).lanewise(VectorOperators.EXP);
            sumV = sumV.add(e, tail);
            if (!log) {
                e.intoArray(y, yi + j, tail);
            }
        }
        float sum = sumV.reduceLanes(VectorOperators.ADD);
        if (log) {
            float shift = max + (float) Math.log(sum);
            for (j = 0; j < upper; j += L) {
                FloatVector.fromArray(S, x, xi + j).sub(shift).intoArray(y, yi + j);
            }
            if (j < cols) {
                FloatVector.fromArray(S, x, xi + j, tail).sub(shift).intoArray(y, yi + j, tail);
            }
        } else {
            float inv = 1 / sum;
            for (j = 0; j < upper; j += L) {
                FloatVector.fromArray(S, y, yi + j).mul(inv).intoArray(y, yi + j);
            }
            if (j < cols) {
                FloatVector.fromArray(S, y, yi + j, tail).mul(inv).intoArray(y, yi + j, tail);
            }
        }
    }

    private static void backwardRow(boolean log, float[] y, int yi, float[] dy, int gi, float[] dx, int xi,
                                    int cols) {
        int upper = S.loopBound(cols);
        VectorMask<Float> tail = S.indexInRange(upper, cols);
        // softmax: s = sum(dy * y); log-softmax: s = sum(dy).
        FloatVector sV = FloatVector.zero(S);
        int j = 0;
        for (; j < upper; j += L) {
            FloatVector g = FloatVector.fromArray(S, dy, gi + j);
            sV = log ? sV.add(g) : g.fma(FloatVector.fromArray(S, y, yi + j), sV);
        }
        if (j < cols) {
            FloatVector g = FloatVector.fromArray(S, dy, gi + j, tail);
            sV = log ? sV.add(g) : g.fma(FloatVector.fromArray(S, y, yi + j, tail), sV);
        }
        float s = sV.reduceLanes(VectorOperators.ADD);
        for (j = 0; j < upper; j += L) {
            backward(log, s, FloatVector.fromArray(S, y, yi + j), FloatVector.fromArray(S, dy, gi + j))
                    .intoArray(dx, xi + j);
        }
        if (j < cols) {
            backward(log, s, FloatVector.fromArray(S, y, yi + j, tail),
                    FloatVector.fromArray(S, dy, gi + j, tail)).intoArray(dx, xi + j, tail);
        }
    }

    /** softmax: {@code y (dy - s)}; log-softmax: {@code dy - exp(y) s}. */
    private static FloatVector backward(boolean log, float s, FloatVector y, FloatVector dy) {
        return log ? dy.sub(y.lanewise(VectorOperators.EXP).mul(s)) : y.mul(dy.sub(s));
    }
}

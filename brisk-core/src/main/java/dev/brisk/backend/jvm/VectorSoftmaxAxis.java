package dev.brisk.backend.jvm;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Softmax and log-softmax along an axis that is not the last, and their backward passes: the tensor is
 * {@code [outer, length, inner]}, and a vector holds one element of each of {@code L} neighbouring columns, so that
 * every step along the axis is one contiguous load. Columns past the last whole vector take the scalar reference's
 * arithmetic. Split over the pool by outer index, which changes no bits (each column is computed whole).
 */
final class VectorSoftmaxAxis {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final RegionTask.Body<SoftmaxAxisArgs> FORWARD = (a, o0, o1) ->
            forwardBlocks(a.log, a.x, a.xOff, a.y, a.yOff, a.length, a.inner, o0, o1);
    private static final RegionTask.Body<SoftmaxAxisArgs> BACKWARD = (a, o0, o1) ->
            backwardBlocks(a.log, a.x, a.xOff, a.dy, a.dyOff, a.y, a.yOff, a.length, a.inner, o0, o1);

    private VectorSoftmaxAxis() {
    }

    static void forward(boolean log, float[] x, int xOff, float[] y, int yOff, int outer, int length, int inner) {
        int grain = Math.max(1, VectorElementwise.GRAIN / Math.max(1, length * inner));
        if (Split.serial(outer, grain)) {
            forwardBlocks(log, x, xOff, y, yOff, length, inner, 0, outer);
            return;
        }
        SoftmaxAxisArgs a = SoftmaxAxisArgs.get();
        a.log = log;
        a.length = length;
        a.inner = inner;
        a.x = x;
        a.xOff = xOff;
        a.y = y;
        a.yOff = yOff;
        a.forRange(outer, grain, Split.CHUNKS_PER_THREAD, FORWARD);
    }

    static void backward(boolean log, float[] y, int yOff, float[] dy, int dyOff, float[] dx, int dxOff, int outer,
                         int length, int inner) {
        int grain = Math.max(1, VectorElementwise.GRAIN / Math.max(1, length * inner));
        if (Split.serial(outer, grain)) {
            backwardBlocks(log, y, yOff, dy, dyOff, dx, dxOff, length, inner, 0, outer);
            return;
        }
        SoftmaxAxisArgs a = SoftmaxAxisArgs.get();
        a.log = log;
        a.length = length;
        a.inner = inner;
        a.x = y;
        a.xOff = yOff;
        a.dy = dy;
        a.dyOff = dyOff;
        a.y = dx;
        a.yOff = dxOff;
        a.forRange(outer, grain, Split.CHUNKS_PER_THREAD, BACKWARD);
    }

    private static void forwardBlocks(boolean log, float[] x, int xOff, float[] y, int yOff, int length, int inner,
                                      int o0, int o1) {
        int whole = inner - inner % L;
        for (int o = o0; o < o1; o++) {
            int base = o * length * inner;
            for (int i = 0; i < whole; i += L) {
                int at = base + i;
                FloatVector max = FloatVector.broadcast(S, Float.NEGATIVE_INFINITY);
                for (int j = 0; j < length; j++) {
                    max = max.max(FloatVector.fromArray(S, x, xOff + at + j * inner));
                }
                FloatVector sum = FloatVector.zero(S);
                for (int j = 0; j < length; j++) {
                    FloatVector e = VectorMath.exp(FloatVector.fromArray(S, x, xOff + at + j * inner).sub(max));
                    sum = sum.add(e);
                    if (!log) {
                        e.intoArray(y, yOff + at + j * inner);
                    }
                }
                if (log) {
                    FloatVector shift = max.add(VectorMath.log(sum));
                    for (int j = 0; j < length; j++) {
                        FloatVector.fromArray(S, x, xOff + at + j * inner).sub(shift)
                                .intoArray(y, yOff + at + j * inner);
                    }
                } else {
                    FloatVector inv = FloatVector.broadcast(S, 1f).div(sum);
                    for (int j = 0; j < length; j++) {
                        FloatVector.fromArray(S, y, yOff + at + j * inner).mul(inv).intoArray(y, yOff + at + j * inner);
                    }
                }
            }
            if (whole < inner) {
                tail(log, false, x, xOff + base + whole, null, 0, y, yOff + base + whole, length, inner,
                        inner - whole);
            }
        }
    }

    private static void backwardBlocks(boolean log, float[] y, int yOff, float[] dy, int dyOff, float[] dx,
                                       int dxOff, int length, int inner, int o0, int o1) {
        int whole = inner - inner % L;
        for (int o = o0; o < o1; o++) {
            int base = o * length * inner;
            for (int i = 0; i < whole; i += L) {
                int at = base + i;
                FloatVector s = FloatVector.zero(S);
                for (int j = 0; j < length; j++) {
                    FloatVector g = FloatVector.fromArray(S, dy, dyOff + at + j * inner);
                    s = log ? s.add(g) : g.fma(FloatVector.fromArray(S, y, yOff + at + j * inner), s);
                }
                for (int j = 0; j < length; j++) {
                    FloatVector g = FloatVector.fromArray(S, dy, dyOff + at + j * inner);
                    FloatVector v = FloatVector.fromArray(S, y, yOff + at + j * inner);
                    FloatVector d = log ? g.sub(VectorMath.exp(v).mul(s)) : v.mul(g.sub(s));
                    d.intoArray(dx, dxOff + at + j * inner);
                }
            }
            if (whole < inner) {
                tail(log, true, y, yOff + base + whole, dy, dyOff + base + whole, dx, dxOff + base + whole, length,
                        inner, inner - whole);
            }
        }
    }

    /** The last {@code columns} columns of one outer index, by the scalar reference, one column at a time. */
    private static void tail(boolean log, boolean backward, float[] x, int xOff, float[] dy, int dyOff, float[] y,
                             int yOff, int length, int inner, int columns) {
        for (int c = 0; c < columns; c++) {
            if (backward) {
                columnBackward(log, x, xOff + c, dy, dyOff + c, y, yOff + c, length, inner);
            } else {
                columnForward(log, x, xOff + c, y, yOff + c, length, inner);
            }
        }
    }

    private static void columnForward(boolean log, float[] x, int xOff, float[] y, int yOff, int length, int inner) {
        ScalarKernels.softmaxColumn(log, x, xOff, y, yOff, length, inner);
    }

    private static void columnBackward(boolean log, float[] y, int yOff, float[] dy, int dyOff, float[] dx,
                                       int dxOff, int length, int inner) {
        ScalarKernels.softmaxColumnBackward(log, y, yOff, dy, dyOff, dx, dxOff, length, inner);
    }
}

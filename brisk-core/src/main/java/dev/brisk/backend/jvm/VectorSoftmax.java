package dev.brisk.backend.jvm;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/** Row-wise softmax and log-softmax and their backward passes, vectorised along rows, split by rows. */
final class VectorSoftmax {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();

    private VectorSoftmax() {
    }

    /**
     * Elements per chunk for rows narrower than a vector. Those rows run scalar code at about 24 ns an element
     * (Math.exp), a hundred times the vector rows' cost, so they are worth splitting at a far smaller size: W1's
     * 128 x 10 loss took 31 us forward and 18 us backward on one thread, while the second waited.
     */
    private static final int NARROW_GRAIN = 512;

    /** Rows per chunk: a chunk of narrow rows costs about what a chunk of the elementwise kernels does. */
    private static int rowGrain(int cols) {
        return Math.max(1, (cols < L ? NARROW_GRAIN : VectorElementwise.GRAIN) / Math.max(1, cols));
    }

    static void forward(boolean log, float[] x, int xOff, float[] y, int yOff, int rows, int cols) {
        int grain = rowGrain(cols);
        if (Split.serial(rows, grain)) {
            forwardRows(log, x, xOff, y, yOff, 0, rows, cols);
        } else {
            SoftmaxArgs r = SoftmaxArgs.get();
            r.log = log;
            r.cols = cols;
            r.x = x;
            r.xOff = xOff;
            r.y = y;
            r.yOff = yOff;
            r.forRange(rows, grain, (a, r0, r1) -> forwardRows(a.log, a.x, a.xOff, a.y, a.yOff, r0, r1, a.cols));
        }
    }

    static void backward(boolean log, float[] y, int yOff, float[] dy, int dyOff, float[] dx, int dxOff, int rows,
                         int cols) {
        int grain = rowGrain(cols);
        if (Split.serial(rows, grain)) {
            backwardRows(log, y, yOff, dy, dyOff, dx, dxOff, 0, rows, cols);
        } else {
            SoftmaxArgs r = SoftmaxArgs.get();
            r.log = log;
            r.cols = cols;
            r.y = y;
            r.yOff = yOff;
            r.dy = dy;
            r.dyOff = dyOff;
            r.dx = dx;
            r.dxOff = dxOff;
            r.forRange(rows, grain, (a, r0, r1) ->
                    backwardRows(a.log, a.y, a.yOff, a.dy, a.dyOff, a.dx, a.dxOff, r0, r1, a.cols));
        }
    }

    /**
     * Softmax cross-entropy of each row against its class index: the probabilities into {@code p}, and
     * {@code loss[r] = -(x[r, index[r]] - shift)} with log-softmax's {@code shift}, so that the loss has the bits of
     * {@code -gatherRows(logSoftmax(x))} and the probabilities those of {@code softmax(x)}.
     */
    static void crossEntropy(float[] x, int xOff, float[] index, int indexOff, float[] p, int pOff, float[] loss,
                             int lossOff, int rows, int cols) {
        int grain = rowGrain(cols);
        if (Split.serial(rows, grain)) {
            crossEntropyRows(x, xOff, index, indexOff, p, pOff, loss, lossOff, 0, rows, cols);
        } else {
            SoftmaxArgs r = SoftmaxArgs.get();
            r.cols = cols;
            r.x = x;
            r.xOff = xOff;
            r.index = index;
            r.indexOff = indexOff;
            r.probs = p;
            r.probsOff = pOff;
            r.loss = loss;
            r.lossOff = lossOff;
            r.forRange(rows, grain, (a, r0, r1) -> crossEntropyRows(a.x, a.xOff, a.index, a.indexOff, a.probs,
                    a.probsOff, a.loss, a.lossOff, r0, r1, a.cols));
        }
    }

    /** {@code dx = dy[r] (p - onehot(index[r]))}. */
    static void crossEntropyBackward(float[] p, int pOff, float[] index, int indexOff, float[] dy, int dyOff,
                                     float[] dx, int dxOff, int rows, int cols) {
        // A multiply an element, not an exponential: the elementwise kernels' grain even for narrow rows.
        int grain = Math.max(1, VectorElementwise.GRAIN / Math.max(1, cols));
        if (Split.serial(rows, grain)) {
            crossEntropyBackwardRows(p, pOff, index, indexOff, dy, dyOff, dx, dxOff, 0, rows, cols);
        } else {
            SoftmaxArgs r = SoftmaxArgs.get();
            r.cols = cols;
            r.probs = p;
            r.probsOff = pOff;
            r.index = index;
            r.indexOff = indexOff;
            r.dy = dy;
            r.dyOff = dyOff;
            r.dx = dx;
            r.dxOff = dxOff;
            r.forRange(rows, grain, (a, r0, r1) -> crossEntropyBackwardRows(a.probs, a.probsOff, a.index,
                    a.indexOff, a.dy, a.dyOff, a.dx, a.dxOff, r0, r1, a.cols));
        }
    }

    private static void crossEntropyRows(float[] x, int xOff, float[] index, int indexOff, float[] p, int pOff,
                                         float[] loss, int lossOff, int r0, int r1, int cols) {
        for (int r = r0; r < r1; r++) {
            int label = ScalarKernels.classIndex(index[indexOff + r], r, cols);
            int xi = xOff + r * cols;
            float sum = cols < L ? forwardNarrowRow(false, x, xi, p, pOff + r * cols, cols)
                    : forwardRow(false, x, xi, p, pOff + r * cols, cols);
            float max = Float.NEGATIVE_INFINITY;
            for (int j = 0; j < cols; j++) {
                max = Math.max(max, x[xi + j]);
            }
            // log-softmax's shift, so that the loss is -logSoftmax(x)[label] to the bit
            float shift = max + (float) Math.log(sum);
            loss[lossOff + r] = -(x[xi + label] - shift);
        }
    }

    private static void crossEntropyBackwardRows(float[] p, int pOff, float[] index, int indexOff, float[] dy,
                                                 int dyOff, float[] dx, int dxOff, int r0, int r1, int cols) {
        for (int r = r0; r < r1; r++) {
            int label = ScalarKernels.classIndex(index[indexOff + r], r, cols);
            float g = dy[dyOff + r];
            int pi = pOff + r * cols;
            int xi = dxOff + r * cols;
            if (cols < L) {
                for (int j = 0; j < cols; j++) {
                    dx[xi + j] = p[pi + j] * g;
                }
            } else {
                scaleRow(p, pi, g, dx, xi, cols);
            }
            dx[xi + label] = g * (p[pi + label] - 1f);
        }
    }

    /** {@code y = x g} over one row at least a vector wide. */
    private static void scaleRow(float[] x, int xi, float g, float[] y, int yi, int cols) {
        int upper = S.loopBound(cols);
        for (int j = 0; j < upper; j += L) {
            FloatVector.fromArray(S, x, xi + j).mul(g).intoArray(y, yi + j);
        }
        for (int j = upper; j < cols; j++) {
            y[yi + j] = x[xi + j] * g;
        }
    }

    private static void forwardRows(boolean log, float[] x, int xOff, float[] y, int yOff, int r0, int r1,
                                    int cols) {
        if (cols < L) {
            for (int r = r0; r < r1; r++) {
                forwardNarrowRow(log, x, xOff + r * cols, y, yOff + r * cols, cols);
            }
            return;
        }
        for (int r = r0; r < r1; r++) {
            forwardRow(log, x, xOff + r * cols, y, yOff + r * cols, cols);
        }
    }

    private static void backwardRows(boolean log, float[] y, int yOff, float[] dy, int dyOff, float[] dx,
                                     int dxOff, int r0, int r1, int cols) {
        if (cols < L) {
            for (int r = r0; r < r1; r++) {
                backwardNarrowRow(log, y, yOff + r * cols, dy, dyOff + r * cols, dx, dxOff + r * cols, cols);
            }
            return;
        }
        for (int r = r0; r < r1; r++) {
            backwardRow(log, y, yOff + r * cols, dy, dyOff + r * cols, dx, dxOff + r * cols, cols);
        }
    }

    // One method per row keeps each piece of vector code small and called often, so it is compiled early and
    // whole (vectors crossing into not-yet-compiled code are boxed). Whole vectors cover the row up to its last
    // multiple of the vector length and plain Java the rest: a masked access for the tail measured 6x slower than
    // a full one (50 us against 8 us for a 128 x 10 softmax), which made the loss of a 10-class model cost more
    // than its last dense layer. Sums are added in element order, so a row's result does not depend on the vector
    // width or on what the JIT has compiled.

    /** One row; returns the sum of {@code exp(x - max)} (the softmax cross-entropy's loss needs it). */
    private static float forwardRow(boolean log, float[] x, int xi, float[] y, int yi, int cols) {
        int upper = S.loopBound(cols);
        float max = Float.NEGATIVE_INFINITY;
        if (upper > 0) {
            FloatVector maxV = FloatVector.fromArray(S, x, xi);
            for (int j = L; j < upper; j += L) {
                maxV = maxV.max(FloatVector.fromArray(S, x, xi + j));
            }
            max = maxV.reduceLanes(VectorOperators.MAX);
        }
        for (int j = upper; j < cols; j++) {
            max = Math.max(max, x[xi + j]);
        }
        // e = exp(x - max) goes to y first: softmax scales it in place, log-softmax only needs its sum.
        for (int j = 0; j < upper; j += L) {
            VectorMath.exp(FloatVector.fromArray(S, x, xi + j).sub(max)).intoArray(y, yi + j);
        }
        for (int j = upper; j < cols; j++) {
            y[yi + j] = (float) Math.exp(x[xi + j] - max);
        }
        float sum = 0f;
        for (int j = 0; j < cols; j++) {
            sum += y[yi + j];
        }
        if (log) {
            float shift = max + (float) Math.log(sum);
            for (int j = 0; j < upper; j += L) {
                FloatVector.fromArray(S, x, xi + j).sub(shift).intoArray(y, yi + j);
            }
            for (int j = upper; j < cols; j++) {
                y[yi + j] = x[xi + j] - shift;
            }
        } else {
            float inv = 1 / sum;
            for (int j = 0; j < upper; j += L) {
                FloatVector.fromArray(S, y, yi + j).mul(inv).intoArray(y, yi + j);
            }
            for (int j = upper; j < cols; j++) {
                y[yi + j] *= inv;
            }
        }
        return sum;
    }

    /** softmax: {@code dx = y (dy - s)}, {@code s = sum(dy y)}; log-softmax: {@code dx = dy - exp(y) s}. */
    private static void backwardRow(boolean log, float[] y, int yi, float[] dy, int gi, float[] dx, int xi,
                                    int cols) {
        float s = 0f;
        for (int j = 0; j < cols; j++) {
            s += log ? dy[gi + j] : dy[gi + j] * y[yi + j];
        }
        int upper = S.loopBound(cols);
        for (int j = 0; j < upper; j += L) {
            FloatVector yv = FloatVector.fromArray(S, y, yi + j);
            FloatVector g = FloatVector.fromArray(S, dy, gi + j);
            FloatVector d = log ? g.sub(VectorMath.exp(yv).mul(s)) : yv.mul(g.sub(s));
            d.intoArray(dx, xi + j);
        }
        for (int j = upper; j < cols; j++) {
            dx[xi + j] = log ? dy[gi + j] - (float) Math.exp(y[yi + j]) * s : y[yi + j] * (dy[gi + j] - s);
        }
    }

    // Rows narrower than a vector take these scalar twins of the row methods (the same operations in the same
    // order as their scalar tails, so the same bits) and never enter the vector ones: run through forwardRow, they
    // made its vector loops look cold, C2 then left VectorMath.exp out of line, and wide rows boxed every vector
    // (VectorAllocationTest failed after VectorKernelsTest's 10-wide rows: 23 KB per 40 x 50 softmax).

    private static float forwardNarrowRow(boolean log, float[] x, int xi, float[] y, int yi, int cols) {
        float max = Float.NEGATIVE_INFINITY;
        for (int j = 0; j < cols; j++) {
            max = Math.max(max, x[xi + j]);
        }
        for (int j = 0; j < cols; j++) {
            y[yi + j] = (float) Math.exp(x[xi + j] - max);
        }
        float sum = 0f;
        for (int j = 0; j < cols; j++) {
            sum += y[yi + j];
        }
        if (log) {
            float shift = max + (float) Math.log(sum);
            for (int j = 0; j < cols; j++) {
                y[yi + j] = x[xi + j] - shift;
            }
        } else {
            float inv = 1 / sum;
            for (int j = 0; j < cols; j++) {
                y[yi + j] *= inv;
            }
        }
        return sum;
    }

    private static void backwardNarrowRow(boolean log, float[] y, int yi, float[] dy, int gi, float[] dx, int xi,
                                          int cols) {
        float s = 0f;
        for (int j = 0; j < cols; j++) {
            s += log ? dy[gi + j] : dy[gi + j] * y[yi + j];
        }
        for (int j = 0; j < cols; j++) {
            dx[xi + j] = log ? dy[gi + j] - (float) Math.exp(y[yi + j]) * s : y[yi + j] * (dy[gi + j] - s);
        }
    }
}

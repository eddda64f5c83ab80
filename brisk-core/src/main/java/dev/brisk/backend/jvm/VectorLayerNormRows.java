package dev.brisk.backend.jvm;

import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API forms of {@link LayerNormLoops}' row sums, with their bits: lane {@code l} adds, in float and in
 * column order, the terms of the columns {@code c = l (mod L)} before {@link #covered(int)}, as the scalar loops
 * there do one lane at a time, and the lanes are stored for the caller to add in double in lane order. Every
 * accumulator starts from {@code FloatVector.zero(F)} in the method itself, so that C2 keeps it in a register (see
 * {@link VectorBatchNormRows}). A row shorter than a vector ({@code full == 0}) takes no vector at all: an
 * accumulator kept across a loop that never runs was boxed by C2 in some JVMs, one allocation per row (the pattern
 * {@code VectorAttention} and {@code VectorReduce} describe).
 */
final class VectorLayerNormRows {
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    /** The lanes of a row sum: one vector's length. */
    static final int L = F.length();

    private VectorLayerNormRows() {
    }

    /** Columns that the lanes cover: whole vectors from column 0. */
    static int covered(int cols) {
        return cols - cols % L;
    }

    /** {@code lanes[l]}: the sum of {@code x[base + c] - s} over the lane's columns below {@code full}. */
    static void shiftedSums(float[] x, int base, int full, float s, float[] lanes) {
        if (full == 0) {
            Arrays.fill(lanes, 0, L, 0f);
            return;
        }
        FloatVector acc = FloatVector.zero(F);
        for (int c = 0; c < full; c += L) {
            acc = acc.add(FloatVector.fromArray(F, x, base + c).sub(s));
        }
        acc.intoArray(lanes, 0);
    }

    /** {@code lanes[l]}: the sum of {@code d * d} (fused), {@code d = (x - hi) - lo}, over the lane's columns. */
    static void squares(float[] x, int base, int full, float hi, float lo, float[] lanes) {
        if (full == 0) {
            Arrays.fill(lanes, 0, L, 0f);
            return;
        }
        FloatVector acc = FloatVector.zero(F);
        for (int c = 0; c < full; c += L) {
            FloatVector d = FloatVector.fromArray(F, x, base + c).sub(hi).sub(lo);
            acc = d.fma(d, acc);
        }
        acc.intoArray(lanes, 0);
    }

    /**
     * {@code lanes[l]}: the sum of {@code g = dy gamma}, and {@code lanes[L + l]} that of {@code g xhat} (fused),
     * {@code xhat = ((x - hi) - lo) rstd}, over the lane's columns.
     */
    static void gradientSums(float[] dy, int gi, float[] gamma, int gammaOff, float[] x, int xi, int full, float hi,
                             float lo, float rstd, float[] lanes) {
        if (full == 0) {
            Arrays.fill(lanes, 0, 2 * L, 0f);
            return;
        }
        FloatVector sumG = FloatVector.zero(F);
        FloatVector sumGx = FloatVector.zero(F);
        for (int c = 0; c < full; c += L) {
            FloatVector g = FloatVector.fromArray(F, dy, gi + c).mul(FloatVector.fromArray(F, gamma, gammaOff + c));
            FloatVector xhat = FloatVector.fromArray(F, x, xi + c).sub(hi).sub(lo).mul(rstd);
            sumG = sumG.add(g);
            sumGx = g.fma(xhat, sumGx);
        }
        sumG.intoArray(lanes, 0);
        sumGx.intoArray(lanes, L);
    }

    /** {@code y = fma((x - hi) - lo, inv gamma, beta)} for the columns below {@code full}. */
    static void normalize(float[] x, int xi, float[] gamma, int gammaOff, float[] beta, int betaOff, float[] y,
                          int yi, int full, float hi, float lo, float inv) {
        for (int c = 0; c < full; c += L) {
            FloatVector scale = FloatVector.fromArray(F, gamma, gammaOff + c).mul(inv);
            FloatVector.fromArray(F, x, xi + c).sub(hi).sub(lo)
                    .fma(scale, FloatVector.fromArray(F, beta, betaOff + c)).intoArray(y, yi + c);
        }
    }

    /**
     * {@code dx = rstd fma(-xhat, mgx, dy gamma - mg)}, {@code xhat = ((x - hi) - lo) rstd}, for the columns below
     * {@code full}.
     */
    static void inputGrad(float[] dy, int gi, float[] gamma, int gammaOff, float[] x, int xi, float[] dx, int di,
                          int full, float hi, float lo, float rstd, float mg, float mgx) {
        for (int c = 0; c < full; c += L) {
            FloatVector xhat = FloatVector.fromArray(F, x, xi + c).sub(hi).sub(lo).mul(rstd);
            FloatVector g = FloatVector.fromArray(F, dy, gi + c).mul(FloatVector.fromArray(F, gamma, gammaOff + c));
            xhat.neg().fma(FloatVector.broadcast(F, mgx), g.sub(mg)).mul(rstd).intoArray(dx, di + c);
        }
    }

    /**
     * Adds a run of rows {@code [r0, r1)} to a block's column sums, for the columns below {@code full}: in float
     * over the run, {@code dy} to {@code sums[at + c]} and {@code dy xhat} (fused) to {@code sums[at + cols + c]};
     * row {@code r}'s hi, lo and rstd are {@code stats[st + i]}, {@code stats[st + run + i]} and
     * {@code stats[st + 2 run + i]}, {@code i = r - r0}.
     */
    static void paramRun(float[] dy, int dyOff, float[] x, int xOff, int cols, int r0, int r1, float[] stats, int st,
                         int run, int full, double[] sums, int at) {
        for (int c = 0; c < full; c += L) {
            FloatVector sumG = FloatVector.zero(F);
            FloatVector sumGx = FloatVector.zero(F);
            for (int r = r0; r < r1; r++) {
                int i = r - r0;
                FloatVector g = FloatVector.fromArray(F, dy, dyOff + r * cols + c);
                FloatVector xhat = FloatVector.fromArray(F, x, xOff + r * cols + c).sub(stats[st + i])
                        .sub(stats[st + run + i]).mul(stats[st + 2 * run + i]);
                sumG = sumG.add(g);
                sumGx = g.fma(xhat, sumGx);
            }
            for (int l = 0; l < L; l++) {
                sums[at + c + l] += sumG.lane(l);
                sums[at + cols + c + l] += sumGx.lane(l);
            }
        }
    }
}

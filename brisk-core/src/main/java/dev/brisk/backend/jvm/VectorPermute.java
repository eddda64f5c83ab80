package dev.brisk.backend.jvm;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Permutations of axes that keep the last axis in place (attention's {@code [batch, time, heads, depth]} to
 * {@code [batch, heads, time, depth]}): contiguous runs of the trailing axes the permutation leaves alone are copied
 * a vector at a time, split over the pool by runs. Any order of the runs gives the same bits (a copy).
 */
final class VectorPermute {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final RegionTask.Body<PermuteArgs> RUNS = (p, r0, r1) ->
            copyRuns(p.x, p.xOff, p.y, p.yOff, p.run, p.axes, p.sizesAndStrides, r0, r1);

    private VectorPermute() {
    }

    /**
     * Permutes {@code x} into {@code y}, or returns false when the permutation moves the last axis (the caller then
     * uses another kernel).
     */
    static boolean permute(float[] x, int xOff, int[] dims, int[] perm, float[] y, int yOff) {
        int rank = dims.length;
        int keep = rank;
        int run = 1;
        while (keep > 0 && perm[keep - 1] == keep - 1) {
            keep--;
            run *= dims[keep];
        }
        if (keep == rank) {
            return false;
        }
        if (keep == 0) {
            System.arraycopy(x, xOff, y, yOff, run);
            return true;
        }
        PermuteArgs p = PermuteArgs.get();
        if (p.sizesAndStrides.length < 2 * keep) {
            p.sizesAndStrides = new int[2 * keep];
        }
        int[] ss = p.sizesAndStrides;
        for (int i = 0; i < keep; i++) {
            int axis = perm[i];
            int stride = run;
            for (int j = axis + 1; j < keep; j++) {
                stride *= dims[j];
            }
            ss[i] = dims[axis];
            ss[keep + i] = stride;
        }
        int runs = 1;
        for (int i = 0; i < keep; i++) {
            runs *= ss[i];
        }
        int grain = Math.max(1, VectorElementwise.GRAIN / Math.max(1, run));
        if (Split.serial(runs, grain)) {
            copyRuns(x, xOff, y, yOff, run, keep, ss, 0, runs);
            return true;
        }
        p.x = x;
        p.xOff = xOff;
        p.y = y;
        p.yOff = yOff;
        p.run = run;
        p.axes = keep;
        p.forRange(runs, grain, Split.CHUNKS_PER_THREAD, RUNS);
        return true;
    }

    /** Output runs {@code [r0, r1)}: the input offset of the first from its index, then odometer-wise. */
    private static void copyRuns(float[] x, int xOff, float[] y, int yOff, int run, int axes, int[] ss, int r0,
                                 int r1) {
        int[] index = Scratch.get().dims(axes);
        int from = xOff;
        int rest = r0;
        for (int i = axes - 1; i >= 0; i--) {
            index[i] = rest % ss[i];
            rest /= ss[i];
            from += index[i] * ss[axes + i];
        }
        int to = yOff + r0 * run;
        for (int r = r0; r < r1; r++) {
            copy(x, from, y, to, run);
            to += run;
            for (int i = axes - 1; i >= 0; i--) {
                if (++index[i] < ss[i]) {
                    from += ss[axes + i];
                    break;
                }
                from -= (ss[i] - 1) * ss[axes + i];
                index[i] = 0;
            }
        }
    }

    private static void copy(float[] x, int from, float[] y, int to, int n) {
        int j = 0;
        for (; j <= n - L; j += L) {
            FloatVector.fromArray(S, x, from + j).intoArray(y, to + j);
        }
        for (; j < n; j++) {
            y[to + j] = x[from + j];
        }
    }
}

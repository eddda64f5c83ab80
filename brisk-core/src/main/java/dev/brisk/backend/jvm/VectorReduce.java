package dev.brisk.backend.jvm;

import dev.brisk.ops.ReduceFn;
import dev.brisk.parallel.Parallel;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Vectorised reductions of a contiguous {@code [outer, r, inner]} view: after merging neighbouring axes that are
 * both kept or both reduced, every reduction of one block of axes (leading, trailing or middle) has that form.
 * {@code inner > 1} (e.g. a bias gradient, the sum over rows) adds whole rows; {@code inner == 1} (a row sum)
 * reduces across lanes. Other patterns return false so the caller can use the reference.
 */
final class VectorReduce {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();

    private VectorReduce() {
    }

    /** Reduces if the pattern is {@code [outer, r, inner]}; returns false otherwise. */
    static boolean reduce(ReduceFn fn, float[] x, int xOff, int[] shape, boolean[] reduceAxes, float[] out,
                          int outOff) {
        int outer = 1;
        int r = 1;
        int inner = 1;
        // 0: before the reduced block, 1: inside it, 2: after it.
        int phase = 0;
        for (int d = 0; d < shape.length; d++) {
            if (shape[d] == 0) {
                return false;
            }
            if (shape[d] == 1) {
                continue;
            }
            if (reduceAxes[d]) {
                if (phase == 2) {
                    return false;
                }
                phase = 1;
                r *= shape[d];
            } else if (phase == 0) {
                outer *= shape[d];
            } else {
                phase = 2;
                inner *= shape[d];
            }
        }
        reduce(fn, x, xOff, outer, r, inner, out, outOff);
        return true;
    }

    private static void reduce(ReduceFn fn, float[] x, int xOff, int outer, int r, int inner, float[] out,
                               int outOff) {
        long work = (long) outer * r * inner;
        int threads = Parallel.threads();
        // Whether the sums are split into slots depends on the budget only, not on whether this call is nested in
        // a region: a call that the planner runs on one thread beside another instruction sums in the same order.
        if (work < 2L * VectorElementwise.GRAIN || threads == 1
                || outer >= threads && Parallel.insideRegion()) {
            reduceRange(fn, x, xOff, r, inner, 0, outer, 0, r, out, outOff);
            return;
        }
        if (outer >= threads) {
            int grain = (int) Math.max(1, VectorElementwise.GRAIN / ((long) r * inner));
            ReduceArgs a = reduceArgs(fn, x, xOff, r, inner, out, outOff);
            a.forRange(outer, grain, (g, o0, o1) ->
                    reduceRange(g.fn, g.x, g.xOff, g.r, g.inner, o0, o1, 0, g.r, g.dst, g.dstOff + o0 * g.inner));
            return;
        }
        // Few outputs: each slot reduces a share of r into its own partial result, and the slots are combined.
        int slots = Math.min(threads, r);
        int size = outer * inner;
        float[] partials = Scratch.get().partials(slots * size);
        if (Parallel.insideRegion()) {
            for (int s = 0; s < slots; s++) {
                reduceRange(fn, x, xOff, r, inner, 0, outer, (int) ((long) r * s / slots),
                        (int) ((long) r * (s + 1) / slots), partials, s * size);
            }
        } else {
            ReduceArgs a = reduceArgs(fn, x, xOff, r, inner, partials, 0);
            a.slots = slots;
            a.outer = outer;
            a.size = size;
            a.forRange(slots, 1, (g, s0, s1) -> {
                for (int s = s0; s < s1; s++) {
                    int r0 = (int) ((long) g.r * s / g.slots);
                    int r1 = (int) ((long) g.r * (s + 1) / g.slots);
                    reduceRange(g.fn, g.x, g.xOff, g.r, g.inner, 0, g.outer, r0, r1, g.dst, s * g.size);
                }
            });
        }
        if (fn == ReduceFn.SUM) {
            VectorElementwise.sumSlices(partials, slots, size, out, outOff);
        } else {
            for (int i = 0; i < size; i++) {
                float m = partials[i];
                for (int s = 1; s < slots; s++) {
                    m = Math.max(m, partials[s * size + i]);
                }
                out[outOff + i] = m;
            }
        }
    }

    /** This thread's region arguments for reducing {@code [outer, r, inner]} into {@code dst}. */
    private static ReduceArgs reduceArgs(ReduceFn fn, float[] x, int xOff, int r, int inner, float[] dst,
                                         int dstOff) {
        ReduceArgs a = ReduceArgs.get();
        a.fn = fn;
        a.x = x;
        a.xOff = xOff;
        a.r = r;
        a.inner = inner;
        a.dst = dst;
        a.dstOff = dstOff;
        return a;
    }

    /**
     * {@code dst[(o - o0) inner + j] = fn over t in [r0, r1) of x[(o r + t) inner + j]} for {@code o} in
     * {@code [o0, o1)}; an empty range gives the identity (0 or -infinity).
     */
    private static void reduceRange(ReduceFn fn, float[] x, int xOff, int r, int inner, int o0, int o1, int r0,
                                    int r1, float[] dst, int dstOff) {
        boolean sum = fn == ReduceFn.SUM;
        float identity = sum ? 0f : Float.NEGATIVE_INFINITY;
        for (int o = o0; o < o1; o++) {
            int base = xOff + o * r * inner;
            int d = dstOff + (o - o0) * inner;
            if (inner == 1) {
                dst[d] = r1 - r0 < L ? shortRun(sum, x, base + r0, r1 - r0, identity)
                        : reduceRun(sum, x, base + r0, r1 - r0, identity);
                continue;
            }
            if (sum && inner % L == 0 && inner <= 4 * L) {
                columnSums(x, base, r0, r1, inner, dst, d);
                continue;
            }
            for (int j = 0; j < inner; j++) {
                dst[d + j] = identity;
            }
            for (int t = r0; t < r1; t++) {
                accumulate(sum, x, base + t * inner, dst, d, inner);
            }
        }
    }

    /**
     * {@code dst[d + j] = sum over t in [r0, r1) of x[base + t inner + j]} for {@code inner = k L}, {@code k <= 4}
     * (a bias gradient over a batch of images): the running sums stay in registers instead of going through
     * {@code dst} on every row, which made this a store-to-load chain (1.9 ms for W2's first bias gradient). The
     * additions are in the same order, so the result is the same.
     */
    private static void columnSums(float[] x, int base, int r0, int r1, int inner, float[] dst, int d) {
        // One loop per width, each updating all its sums on every row: with the widths' updates under conditions
        // in one loop, C2 sometimes kept the sums boxed (2.6 KB per step for a 32-wide bias gradient, in about a
        // third of the JVMs).
        switch (inner / L) {
            case 1 -> columnSums1(x, base, r0, r1, inner, dst, d);
            case 2 -> columnSums2(x, base, r0, r1, inner, dst, d);
            case 3 -> {
                columnSums2(x, base, r0, r1, inner, dst, d);
                columnSums1(x, base + 2 * L, r0, r1, inner, dst, d + 2 * L);
            }
            case 4 -> columnSums4(x, base, r0, r1, inner, dst, d);
            default -> throw new IllegalArgumentException("column sums take 1 to 4 vectors, not " + inner / L);
        }
    }

    /** {@link #columnSums} of the one vector of columns at {@code base}, rows {@code inner} apart. */
    private static void columnSums1(float[] x, int base, int r0, int r1, int inner, float[] dst, int d) {
        FloatVector a0 = FloatVector.zero(S);
        for (int t = r0; t < r1; t++) {
            a0 = a0.add(FloatVector.fromArray(S, x, base + t * inner));
        }
        a0.intoArray(dst, d);
    }

    /** {@link #columnSums} of the two vectors of columns at {@code base}. */
    private static void columnSums2(float[] x, int base, int r0, int r1, int inner, float[] dst, int d) {
        FloatVector a0 = FloatVector.zero(S);
        FloatVector a1 = a0;
        for (int t = r0; t < r1; t++) {
            int at = base + t * inner;
            a0 = a0.add(FloatVector.fromArray(S, x, at));
            a1 = a1.add(FloatVector.fromArray(S, x, at + L));
        }
        a0.intoArray(dst, d);
        a1.intoArray(dst, d + L);
    }

    /** {@link #columnSums} of the four vectors of columns at {@code base}. */
    private static void columnSums4(float[] x, int base, int r0, int r1, int inner, float[] dst, int d) {
        FloatVector a0 = FloatVector.zero(S);
        FloatVector a1 = a0;
        FloatVector a2 = a0;
        FloatVector a3 = a0;
        for (int t = r0; t < r1; t++) {
            int at = base + t * inner;
            a0 = a0.add(FloatVector.fromArray(S, x, at));
            a1 = a1.add(FloatVector.fromArray(S, x, at + L));
            a2 = a2.add(FloatVector.fromArray(S, x, at + 2 * L));
            a3 = a3.add(FloatVector.fromArray(S, x, at + 3 * L));
        }
        a0.intoArray(dst, d);
        a1.intoArray(dst, d + L);
        a2.intoArray(dst, d + 2 * L);
        a3.intoArray(dst, d + 3 * L);
    }

    /** {@code dst[d + j] = dst[d + j] (+ or max) x[from + j]} for {@code j < n}. */
    private static void accumulate(boolean sum, float[] x, int from, float[] dst, int d, int n) {
        int j = 0;
        for (int upper = S.loopBound(n); j < upper; j += L) {
            FloatVector acc = FloatVector.fromArray(S, dst, d + j);
            FloatVector v = FloatVector.fromArray(S, x, from + j);
            (sum ? acc.add(v) : acc.max(v)).intoArray(dst, d + j);
        }
        for (; j < n; j++) {
            dst[d + j] = sum ? dst[d + j] + x[from + j] : Math.max(dst[d + j], x[from + j]);
        }
    }

    /**
     * Sum or max of fewer than a vector of contiguous floats (a depthwise tap's multiplier sum, a Dot's norm over a
     * few features), in element order: the bits of {@link #reduceRun}, whose masked vector, one element per lane,
     * is added in lane order. No vector at all: C2 left boxed vectors on every such call in the allocation test.
     */
    private static float shortRun(boolean sum, float[] x, int from, int n, float identity) {
        float total = identity;
        for (int k = 0; k < n; k++) {
            total = sum ? total + x[from + k] : Math.max(total, x[from + k]);
        }
        return total;
    }

    /** Sum or max of {@code n} contiguous floats. */
    private static float reduceRun(boolean sum, float[] x, int from, int n, float identity) {
        FloatVector acc = FloatVector.broadcast(S, identity);
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += L) {
            FloatVector v = FloatVector.fromArray(S, x, from + i);
            acc = sum ? acc.add(v) : acc.max(v);
        }
        if (i < n) {
            VectorMask<Float> m = S.indexInRange(i, n);
            FloatVector v = FloatVector.fromArray(S, x, from + i, m);
            acc = sum ? acc.add(v, m) : acc.lanewise(VectorOperators.MAX, v, m);
        }
        if (!sum) {
            return acc.reduceLanes(VectorOperators.MAX);
        }
        // Lanes are added in lane order, never in reduceLanes' unspecified order (see VectorMath).
        float[] lanes = Scratch.get().lanes(L);
        acc.intoArray(lanes, 0);
        float total = 0f;
        for (int k = 0; k < L; k++) {
            total += lanes[k];
        }
        return total;
    }
}

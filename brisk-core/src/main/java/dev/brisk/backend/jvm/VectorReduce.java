package dev.brisk.backend.jvm;

import dev.brisk.backend.Kernels.PoolGeometry;
import dev.brisk.backend.ReduceFn;
import dev.brisk.parallel.Parallel;
import java.util.Arrays;
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
            RegionArgs a = reduceArgs(fn, x, xOff, r, inner, out, outOff);
            a.forRange(outer, grain, (g, o0, o1) ->
                    reduceRange((ReduceFn) g.o0, g.f0, g.i0, g.i1, g.i2, o0, o1, 0, g.i1, g.f1, g.i3 + o0 * g.i2));
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
            RegionArgs a = reduceArgs(fn, x, xOff, r, inner, partials, 0);
            a.i4 = slots;
            a.i5 = outer;
            a.i6 = size;
            a.forRange(slots, 1, (g, s0, s1) -> {
                for (int s = s0; s < s1; s++) {
                    int r0 = (int) ((long) g.i1 * s / g.i4);
                    int r1 = (int) ((long) g.i1 * (s + 1) / g.i4);
                    reduceRange((ReduceFn) g.o0, g.f0, g.i0, g.i1, g.i2, 0, g.i5, r0, r1, g.f1, s * g.i6);
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

    /**
     * The per-channel sums over all pixels of the gradient that max pooling {@code p} routes back through relu to
     * its input, made a row at a time from the pool's {@code cells} and the pooled gradient {@code dy}
     * ({@link PooledGradient}): the bits of {@link #reduce} summing that gradient over its first three axes (one
     * output, so the same slots, each adding its rows in order from zero). Only where
     * {@link PooledGradient#supports} says so.
     */
    static void channelSumsOfPooled(PoolGeometry p, float[] cells, int cellsOff, float[] dy, int dyOff, float[] out,
                                    int outOff) {
        int r = p.batch() * p.height() * p.width();
        int inner = p.channels();
        int threads = Parallel.threads();
        if ((long) r * inner < 2L * VectorElementwise.GRAIN || threads == 1) {
            pooledRowSums(p, cells, cellsOff, dy, dyOff, 0, r, out, outOff);
            return;
        }
        int slots = Math.min(threads, r);
        float[] partials = Scratch.get().partials(slots * inner);
        if (Parallel.insideRegion()) {
            for (int s = 0; s < slots; s++) {
                pooledRowSums(p, cells, cellsOff, dy, dyOff, (int) ((long) r * s / slots),
                        (int) ((long) r * (s + 1) / slots), partials, s * inner);
            }
        } else {
            RegionArgs a = RegionArgs.get();
            a.o0 = p;
            a.f0 = cells;
            a.i0 = cellsOff;
            a.f1 = dy;
            a.i1 = dyOff;
            a.f2 = partials;
            a.i2 = r;
            a.i3 = slots;
            a.forRange(slots, 1, (g, s0, s1) -> {
                for (int s = s0; s < s1; s++) {
                    PoolGeometry pool = (PoolGeometry) g.o0;
                    pooledRowSums(pool, g.f0, g.i0, g.f1, g.i1, (int) ((long) g.i2 * s / g.i3),
                            (int) ((long) g.i2 * (s + 1) / g.i3), g.f2, s * pool.channels());
                }
            });
        }
        VectorElementwise.sumSlices(partials, slots, inner, out, outOff);
    }

    /**
     * {@code dst[d + j] = sum over pixels t in [t0, t1) of the routed gradient}, an image row of pixels at a time,
     * the running sums waiting in {@code dst} between rows (a float stored and read back is unchanged). A pixel the
     * cells do not pick adds {@code +0}, which leaves the sum as it is (from {@code +0} it is never -0), so each
     * window's pixels in a row are added as one: at most one of them holds a lane's gradient.
     */
    private static void pooledRowSums(PoolGeometry p, float[] cells, int cellsOff, float[] dy, int dyOff, int t0,
                                      int t1, float[] dst, int d) {
        int inner = p.channels();
        Arrays.fill(dst, d, d + inner, 0f);
        Scratch scratch = Scratch.get();
        int[] index = scratch.pooledIndex(p.width());
        float[] first = scratch.pooledCell(2 * p.width());
        // Image, row and column kept as counters: divisions per row cost as much as a row's additions.
        int w = t0 % p.width();
        int h = t0 / p.width() % p.height();
        int n = t0 / (p.width() * p.height());
        for (int t = t0; t < t1; ) {
            int count = Math.min(t1 - t, p.width() - w);
            if (w == 0 && count == p.width() && inner == 2 * L) {
                // Whole rows, two vectors of channels: the sums stay in registers across them.
                int rows = (t1 - t) / p.width();
                wholeRowSums2(p, cells, cellsOff, dy, dyOff, n, h, rows, dst, d);
                t += rows * p.width();
                h += rows;
                n += h / p.height();
                h %= p.height();
                continue;
            }
            int windows = PooledGradient.windows(p, n, h, w, count, index, first, p.width());
            int j = 0;
            for (; j + 2 * L <= inner; j += 2 * L) {
                windowSums2(cells, cellsOff + j, dy, dyOff + j, index, first, p.width(), windows, dst, d + j);
            }
            for (; j < inner; j += L) {
                windowSums1(cells, cellsOff + j, dy, dyOff + j, index, first, p.width(), windows, dst, d + j);
            }
            t += count;
            w = 0;
            if (++h == p.height()) {
                h = 0;
                n++;
            }
        }
    }

    /**
     * {@link #pooledRowSums} over {@code rows} whole rows from row {@code h} of image {@code n}, for two vectors of
     * channels (all of them): each row's windows take the lanes whose cell lies in that row of the window.
     */
    private static void wholeRowSums2(PoolGeometry p, float[] cells, int cellsOff, float[] dy, int dyOff, int n,
                                      int h, int rows, float[] dst, int d) {
        FloatVector s0 = FloatVector.fromArray(S, dst, d);
        FloatVector s1 = FloatVector.fromArray(S, dst, d + L);
        int c = p.channels();
        int windowRow = h / p.poolH();
        int inWindow = h % p.poolH();
        for (int row = 0; row < rows; row++) {
            if (windowRow < p.outH()) {
                float lo = inWindow * p.poolW();
                float hi = lo + p.poolW() - 1;
                int at = (n * p.outH() + windowRow) * p.outW() * c;
                for (int end = at + p.outW() * c; at < end; at += c) {
                    FloatVector c0 = FloatVector.fromArray(S, cells, cellsOff + at);
                    FloatVector c1 = FloatVector.fromArray(S, cells, cellsOff + at + L);
                    s0 = s0.add(FloatVector.fromArray(S, dy, dyOff + at),
                            c0.compare(VectorOperators.GE, lo).and(c0.compare(VectorOperators.LE, hi)));
                    s1 = s1.add(FloatVector.fromArray(S, dy, dyOff + at + L),
                            c1.compare(VectorOperators.GE, lo).and(c1.compare(VectorOperators.LE, hi)));
                }
            }
            if (++inWindow == p.poolH()) {
                inWindow = 0;
                windowRow++;
            }
            if (++h == p.height()) {
                h = 0;
                n++;
                windowRow = 0;
                inWindow = 0;
            }
        }
        s0.intoArray(dst, d);
        s1.intoArray(dst, d + L);
    }

    /**
     * Two vectors of {@link #pooledRowSums} over one row's {@code windows}: window i takes the lanes whose cell is
     * from {@code bounds[i]} to {@code bounds[last + i]}.
     */
    private static void windowSums2(float[] cells, int cellsOff, float[] dy, int dyOff, int[] index, float[] bounds,
                                    int last, int windows, float[] dst, int d) {
        FloatVector s0 = FloatVector.fromArray(S, dst, d);
        FloatVector s1 = FloatVector.fromArray(S, dst, d + L);
        for (int i = 0; i < windows; i++) {
            int at = index[i];
            float lo = bounds[i];
            float hi = bounds[last + i];
            FloatVector c0 = FloatVector.fromArray(S, cells, cellsOff + at);
            FloatVector c1 = FloatVector.fromArray(S, cells, cellsOff + at + L);
            s0 = s0.add(FloatVector.fromArray(S, dy, dyOff + at),
                    c0.compare(VectorOperators.GE, lo).and(c0.compare(VectorOperators.LE, hi)));
            s1 = s1.add(FloatVector.fromArray(S, dy, dyOff + at + L),
                    c1.compare(VectorOperators.GE, lo).and(c1.compare(VectorOperators.LE, hi)));
        }
        s0.intoArray(dst, d);
        s1.intoArray(dst, d + L);
    }

    /** One vector of {@link #pooledRowSums} over one row's {@code windows}. */
    private static void windowSums1(float[] cells, int cellsOff, float[] dy, int dyOff, int[] index, float[] bounds,
                                    int last, int windows, float[] dst, int d) {
        FloatVector s0 = FloatVector.fromArray(S, dst, d);
        for (int i = 0; i < windows; i++) {
            int at = index[i];
            FloatVector c0 = FloatVector.fromArray(S, cells, cellsOff + at);
            s0 = s0.add(FloatVector.fromArray(S, dy, dyOff + at),
                    c0.compare(VectorOperators.GE, bounds[i]).and(c0.compare(VectorOperators.LE, bounds[last + i])));
        }
        s0.intoArray(dst, d);
    }

    /** This thread's region arguments for reducing {@code [outer, r, inner]} into {@code dst}. */
    private static RegionArgs reduceArgs(ReduceFn fn, float[] x, int xOff, int r, int inner, float[] dst,
                                         int dstOff) {
        RegionArgs a = RegionArgs.get();
        a.o0 = fn;
        a.f0 = x;
        a.i0 = xOff;
        a.i1 = r;
        a.i2 = inner;
        a.f1 = dst;
        a.i3 = dstOff;
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
                dst[d] = reduceRun(sum, x, base + r0, r1 - r0, identity);
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

package dev.brisk.backend.jvm;

import dev.brisk.ops.PoolGeometry;
import dev.brisk.parallel.Parallel;
import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * A bias gradient's per-channel sums of the gradient that max pooling routes back through relu to its input, read
 * from the pool's cells and the pooled gradient ({@link PooledGradient}) rather than from an array of it, in the
 * order and slots of {@link VectorReduce}, so with its bits.
 */
final class PooledChannelSums {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();

    private PooledChannelSums() {
    }

    /**
     * The per-channel sums over all pixels of the gradient that max pooling {@code p} routes back through relu to
     * its input, from the pool's {@code cells} and the pooled gradient {@code dy}: the bits of
     * {@link VectorReduce#reduce} summing that gradient over its first three axes (one output, so the same slots,
     * each adding its rows in order from zero). Only where {@link PooledGradient#supports} says so.
     */
    static void sums(PoolGeometry p, float[] cells, int cellsOff, float[] dy, int dyOff, float[] out, int outOff) {
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
            PoolArgs a = PoolArgs.get();
            a.pool = p;
            a.cells = cells;
            a.cellsOff = cellsOff;
            a.src = dy;
            a.srcOff = dyOff;
            a.dst = partials;
            a.rows = r;
            a.slots = slots;
            a.forRange(slots, 1, (g, s0, s1) -> {
                for (int s = s0; s < s1; s++) {
                    PoolGeometry pool = g.pool;
                    pooledRowSums(pool, g.cells, g.cellsOff, g.src, g.srcOff, (int) ((long) g.rows * s / g.slots),
                            (int) ((long) g.rows * (s + 1) / g.slots), g.dst, s * pool.channels());
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
            if (w == 0 && count == p.width() && inner % (2 * L) == 0) {
                // Whole rows, two vectors of channels at a time: the sums stay in registers across the rows.
                int rows = (t1 - t) / p.width();
                for (int j = 0; j < inner; j += 2 * L) {
                    wholeRowSums2(p, cells, cellsOff + j, dy, dyOff + j, n, h, rows, dst, d + j);
                }
                t += rows * p.width();
                h += rows;
                n += h / p.height();
                h %= p.height();
                continue;
            }
            int windows = PooledGradient.windows(p, n, h, w, count, index, first, p.width());
            for (int j = 0; j < inner; j += L) {
                windowSums(cells, cellsOff + j, dy, dyOff + j, index, first, p.width(), windows, dst, d + j);
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
     * {@link #pooledRowSums} over {@code rows} whole rows from row {@code h} of image {@code n}, for the two vectors
     * of channels at the offsets given: each row's windows take the lanes whose cell lies in that row of the window.
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
     * One vector of {@link #pooledRowSums} over one row's {@code windows}: window i takes the lanes whose cell is
     * from {@code bounds[i]} to {@code bounds[last + i]}.
     */
    private static void windowSums(float[] cells, int cellsOff, float[] dy, int dyOff, int[] index, float[] bounds,
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
}

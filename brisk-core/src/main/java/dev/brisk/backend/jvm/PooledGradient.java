package dev.brisk.backend.jvm;

import dev.brisk.ops.PoolGeometry;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The gradient that max pooling routes back through relu to its input, read straight from the pool's cells and
 * the pooled gradient by the kernels that consume it, so that no array of it is written (11 MB a step for W2's
 * first convolution). For windows that neither overlap nor pad, a pixel's value is what {@link VectorPool}'s
 * backward pass gated by the cells stores: {@code 0 + dy} of its window where the window's cell record names this
 * pixel (a maximum above zero), {@code +0} elsewhere and for pixels that no window covers. The kernels compute it a
 * vector of channels at a time as {@code zero.add(dy, cells == cell)}, from the positions {@link #locate} gives,
 * or as a masked load of dy where it only feeds FMA chains or sums that start from {@code +0}: those never hold
 * -0, so a -0 where {@code 0 + dy} would give +0 changes no bit.
 */
final class PooledGradient {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;

    private PooledGradient() {
    }

    /** Whether the gradient can be read this way: windows that neither overlap nor pad, whole vectors of channels. */
    static boolean supports(PoolGeometry p) {
        return p.strideH() == p.poolH() && p.strideW() == p.poolW() && p.padTop() == 0 && p.padLeft() == 0
                && p.channels() % S.length() == 0;
    }

    /**
     * For pixels {@code w0 .. w0 + count - 1} of row {@code h} of image {@code n} of the pooled input: the offset
     * of each one's window in the pooled gradient (and in the cells) into {@code index}, and its cell in that
     * window into {@code cell}; a pixel that no window covers gets offset 0 and cell NaN, which no record equals, so
     * that the kernels need no branch for it.
     */
    static void locate(PoolGeometry p, int n, int h, int w0, int count, int[] index, float[] cell) {
        int windowRow = h / p.poolH();
        int firstCell = h % p.poolH() * p.poolW();
        int rowBase = (n * p.outH() + windowRow) * p.outW();
        boolean rowCovered = windowRow < p.outH();
        // Counters rather than a division per pixel: a division costs more than the kernels' work on the pixel.
        int windowCol = w0 / p.poolW();
        int inWindow = w0 % p.poolW();
        for (int i = 0; i < count; i++) {
            boolean covered = rowCovered && windowCol < p.outW();
            index[i] = covered ? (rowBase + windowCol) * p.channels() : 0;
            cell[i] = covered ? firstCell + inWindow : Float.NaN;
            if (++inWindow == p.poolW()) {
                inWindow = 0;
                windowCol++;
            }
        }
    }

    /**
     * The windows that cover pixels {@code w0 .. w0 + count - 1} of row {@code h} of image {@code n}, in order: for
     * each, its offset into {@code index}, and the first and last of its cells in this row into {@code bounds} at
     * {@code i} and {@code lastAt + i}. Returns how many; pixels that no window covers are left out.
     */
    static int windows(PoolGeometry p, int n, int h, int w0, int count, int[] index, float[] bounds, int lastAt) {
        int windowRow = h / p.poolH();
        if (windowRow >= p.outH()) {
            return 0;
        }
        int rowCell = h % p.poolH() * p.poolW();
        int rowBase = (n * p.outH() + windowRow) * p.outW();
        int end = Math.min(w0 + count, p.outW() * p.poolW());
        int windowCol = w0 / p.poolW();
        int inWindow = w0 % p.poolW();
        int found = 0;
        for (int w = w0; w < end; windowCol++) {
            int cells = Math.min(end - w, p.poolW() - inWindow);
            index[found] = (rowBase + windowCol) * p.channels();
            bounds[found] = rowCell + inWindow;
            bounds[lastAt + found] = rowCell + inWindow + cells - 1;
            found++;
            w += cells;
            inWindow = 0;
        }
        return found;
    }
}

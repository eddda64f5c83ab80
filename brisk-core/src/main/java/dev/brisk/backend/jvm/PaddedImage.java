package dev.brisk.backend.jvm;

import dev.brisk.ops.ConvGeometry;
import java.util.Arrays;

/**
 * One image of a convolution's input as its windows read it, for the kernels that read windows straight from the
 * image ({@link VectorNarrowConv}): where a window hangs over the padding, the image is copied with its zero rows
 * and columns into per-thread scratch, so that every window is inside and every pixel takes the same loop; where
 * none does, the image is read in place.
 */
final class PaddedImage {
    private PaddedImage() {
    }

    /** Rows of zeros the windows read below the image (0 when they stop inside it). */
    static int padBottom(ConvGeometry g) {
        return Math.max(0, (g.outH() - 1) * g.strideH() + g.kernelH() - g.padTop() - g.height());
    }

    /** Columns of zeros the windows read right of the image. */
    static int padRight(ConvGeometry g) {
        return Math.max(0, (g.outW() - 1) * g.strideW() + g.kernelW() - g.padLeft() - g.width());
    }

    /** Whether some window reads the padding, so the image is copied. */
    static boolean copied(ConvGeometry g) {
        return g.padTop() > 0 || g.padLeft() > 0 || padBottom(g) > 0 || padRight(g) > 0;
    }

    /** Columns of the copy: those the windows span. */
    private static int copyWidth(ConvGeometry g) {
        return (g.outW() - 1) * g.strideW() + g.kernelW();
    }

    /** Floats from one row of the image (or of its copy) to the next. */
    static int rowStride(ConvGeometry g) {
        return (copied(g) ? copyWidth(g) : g.width()) * g.channels();
    }

    /** Where image {@code n}'s first window starts in the array {@link #of} returns. */
    static int base(ConvGeometry g, int xOff, int n) {
        return copied(g) ? 0 : xOff + n * g.height() * g.width() * g.channels();
    }

    /** Each of the {@code k} taps' offset from its window's first value, in im2col's {@code (i, j, c)} order. */
    static void taps(ConvGeometry g, int[] taps, int k) {
        int kwc = g.kernelW() * g.channels();
        int rowStride = rowStride(g);
        for (int p = 0; p < k; p++) {
            taps[p] = p / kwc * rowStride + p % kwc;
        }
    }

    /** Image {@code n} as the windows read it: {@code x} itself, or this thread's copy with the padding's zeros. */
    static float[] of(ConvGeometry g, float[] x, int xOff, int n) {
        if (!copied(g)) {
            return x;
        }
        int rows = (g.outH() - 1) * g.strideH() + g.kernelH();
        int width = copyWidth(g);
        float[] copy = Scratch.get().padded(rows * width * g.channels());
        copy(g, x, xOff, n, rows, width, copy);
        return copy;
    }

    /**
     * Image {@code n} into {@code copy}: {@code rows} rows of {@code width} pixels, row r and column j holding image
     * pixel {@code (r - padTop, j - padLeft)}, or zeros where that is outside the image.
     */
    static void copy(ConvGeometry g, float[] x, int xOff, int n, int rows, int width, float[] copy) {
        int c = g.channels();
        int rowStride = width * c;
        // Columns [lo, hi) of a copied row are image columns [lo - padLeft, hi - padLeft).
        int lo = Math.min(width, g.padLeft());
        int hi = Math.max(lo, Math.min(width, g.padLeft() + g.width()));
        for (int r = 0; r < rows; r++) {
            int ih = r - g.padTop();
            int dst = r * rowStride;
            if (ih < 0 || ih >= g.height()) {
                Arrays.fill(copy, dst, dst + rowStride, 0f);
                continue;
            }
            Arrays.fill(copy, dst, dst + lo * c, 0f);
            System.arraycopy(x, xOff + ((n * g.height() + ih) * g.width() + lo - g.padLeft()) * c, copy,
                    dst + lo * c, (hi - lo) * c);
            Arrays.fill(copy, dst + hi * c, dst + rowStride, 0f);
        }
    }
}

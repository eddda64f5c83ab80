package dev.brisk.ops.image;

import java.util.Objects;

/**
 * Samples an image through an affine map from output to input pixel coordinates, as TensorFlow's
 * {@code ImageProjectiveTransformV3} (behind Keras' geometric augmentations) does: {@code in_x = a0 x + a1 y + a2},
 * {@code in_y = b0 x + b1 y + b2}, pixel centres at integers. With {@link FillMode#REFLECT} a coordinate is mirrored
 * about -0.5 and {@code len - 0.5} and clamped to {@code [0, len - 1]}; with {@link FillMode#CONSTANT} it stays and
 * each neighbour outside the image reads the fill value. Bilinear blends the four neighbours, nearest rounds half
 * away from zero (C's {@code round}). {@link #sampleAdjoint} is the transpose of the same linear map, the gradient
 * with respect to the image.
 */
public final class AffineSampler {
    /** Coordinates this close to an integer are that integer, so that quarter turns and identity maps are exact. */
    private static final double SNAP = 1e-9;

    private final FillMode fillMode;
    private final float fillValue;
    private final Interpolation interpolation;

    /**
     * A sampler.
     *
     * @param fillMode what is read outside the image
     * @param fillValue the value outside the image under {@link FillMode#CONSTANT}
     * @param interpolation bilinear or nearest
     */
    public AffineSampler(FillMode fillMode, float fillValue, Interpolation interpolation) {
        this.fillMode = Objects.requireNonNull(fillMode, "fillMode");
        this.fillValue = fillValue;
        this.interpolation = Objects.requireNonNull(interpolation, "interpolation");
    }

    /**
     * Writes image {@code (h, w, c)} at {@code in[inBase]} transformed by {@code t = {a0, a1, a2, b0, b1, b2}} to
     * {@code out[outBase]}.
     *
     * @param in the source images
     * @param inBase index of the image's first element
     * @param h its height
     * @param w its width
     * @param c its channels
     * @param t the map from output to input coordinates
     * @param out receives the transformed image
     * @param outBase index of its first element
     */
    public void sample(float[] in, int inBase, int h, int w, int c, double[] t, float[] out, int outBase) {
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                double sx = map(snap(t[0] * x + t[1] * y + t[2]), w);
                double sy = map(snap(t[3] * x + t[4] * y + t[5]), h);
                int o = outBase + (y * w + x) * c;
                if (interpolation == Interpolation.NEAREST) {
                    long ny = roundHalfAway(sy);
                    long nx = roundHalfAway(sx);
                    for (int ch = 0; ch < c; ch++) {
                        out[o + ch] = read(in, inBase, h, w, c, ny, nx, ch);
                    }
                } else {
                    double yf = Math.floor(sy);
                    double xf = Math.floor(sx);
                    double dy = sy - yf;
                    double dx = sx - xf;
                    long y0 = (long) yf;
                    long x0 = (long) xf;
                    for (int ch = 0; ch < c; ch++) {
                        double top = (1 - dx) * read(in, inBase, h, w, c, y0, x0, ch)
                                + dx * read(in, inBase, h, w, c, y0, x0 + 1, ch);
                        double bottom = (1 - dx) * read(in, inBase, h, w, c, y0 + 1, x0, ch)
                                + dx * read(in, inBase, h, w, c, y0 + 1, x0 + 1, ch);
                        out[o + ch] = (float) ((1 - dy) * top + dy * bottom);
                    }
                }
            }
        }
    }

    /**
     * The transpose of {@link #sample}: adds to {@code dx} (image {@code (h, w, c)} at {@code dx[dxBase]}) what each
     * output element's {@code dy} contributes through the weights with which {@link #sample} read the input, so
     * {@code dx} is the gradient of {@code sum(dy * sample(x))} with respect to {@code x}. Reads of the fill value
     * contribute nothing.
     *
     * @param dy the gradient with respect to the transformed image
     * @param dyBase index of its first element
     * @param h the height
     * @param w the width
     * @param c the channels
     * @param t the map from output to input coordinates, as given to {@link #sample}
     * @param dx receives (adds) the gradient with respect to the source image
     * @param dxBase index of its first element
     */
    public void sampleAdjoint(float[] dy, int dyBase, int h, int w, int c, double[] t, float[] dx, int dxBase) {
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                double sx = map(snap(t[0] * x + t[1] * y + t[2]), w);
                double sy = map(snap(t[3] * x + t[4] * y + t[5]), h);
                int o = dyBase + (y * w + x) * c;
                if (interpolation == Interpolation.NEAREST) {
                    scatter(dy, o, 1, dx, dxBase, h, w, c, roundHalfAway(sy), roundHalfAway(sx));
                } else {
                    double yf = Math.floor(sy);
                    double xf = Math.floor(sx);
                    double fy = sy - yf;
                    double fx = sx - xf;
                    long y0 = (long) yf;
                    long x0 = (long) xf;
                    scatter(dy, o, (1 - fy) * (1 - fx), dx, dxBase, h, w, c, y0, x0);
                    scatter(dy, o, (1 - fy) * fx, dx, dxBase, h, w, c, y0, x0 + 1);
                    scatter(dy, o, fy * (1 - fx), dx, dxBase, h, w, c, y0 + 1, x0);
                    scatter(dy, o, fy * fx, dx, dxBase, h, w, c, y0 + 1, x0 + 1);
                }
            }
        }
    }

    private static void scatter(float[] dy, int o, double weight, float[] dx, int base, int h, int w, int c, long y,
            long x) {
        if (weight == 0 || y < 0 || y >= h || x < 0 || x >= w) {
            return;
        }
        int i = base + (int) ((y * w + x) * c);
        for (int ch = 0; ch < c; ch++) {
            dx[i + ch] += (float) (weight * dy[o + ch]);
        }
    }

    private float read(float[] in, int base, int h, int w, int c, long y, long x, int ch) {
        if (y < 0 || y >= h || x < 0 || x >= w) {
            return fillValue;
        }
        return in[base + (int) ((y * w + x) * c) + ch];
    }

    private double map(double v, int len) {
        if (fillMode == FillMode.CONSTANT) {
            return v;
        }
        if (len <= 1) {
            return 0;
        }
        // TensorFlow's reflect rule: fold into one period of 2 len, then mirror the second half.
        double period = 2.0 * len;
        if (v < 0) {
            v = period * (long) (-v / period) + v;
            v = v < -len ? v + period : -v - 1;
        } else if (v > len - 1) {
            v -= period * (long) (v / period);
            if (v >= len) {
                v = period - v - 1;
            }
        }
        return Math.min(Math.max(v, 0), len - 1);
    }

    private static double snap(double v) {
        double r = Math.rint(v);
        return Math.abs(v - r) < SNAP ? r : v;
    }

    private static long roundHalfAway(double v) {
        return v < 0 ? -(long) Math.floor(-v + 0.5) : (long) Math.floor(v + 0.5);
    }
}

package dev.brisk.data.preprocessing;

import dev.brisk.tensor.Tensor;

/**
 * Samples an image through an affine map from output to input pixel coordinates, as TensorFlow's
 * {@code ImageProjectiveTransformV3} (behind Keras' geometric augmentations) does: {@code in_x = a0 x + a1 y + a2},
 * {@code in_y = b0 x + b1 y + b2}, pixel centres at integers. With {@link FillMode#REFLECT} a coordinate is mirrored
 * about -0.5 and {@code len - 0.5} and clamped to {@code [0, len - 1]}; with {@link FillMode#CONSTANT} it stays and
 * each neighbour outside the image reads the fill value. Bilinear blends the four neighbours, nearest rounds half
 * away from zero (C's {@code round}).
 */
final class AffineSampler {
    /** Coordinates this close to an integer are that integer, so that quarter turns and identity maps are exact. */
    private static final double SNAP = 1e-9;

    private final FillMode fillMode;
    private final float fillValue;
    private final Interpolation interpolation;

    AffineSampler(FillMode fillMode, float fillValue, Interpolation interpolation) {
        this.fillMode = fillMode;
        this.fillValue = fillValue;
        this.interpolation = interpolation;
    }

    /** Draws one image's map {@code {a0, a1, a2, b0, b1, b2}} for an image of {@code h} x {@code w}. */
    interface Draw {
        double[] next(int h, int w);
    }

    /** Transforms each image of {@code x} (one image or a batch) by its own draw, in order. */
    Tensor apply(Tensor x, String who, Draw draw) {
        ImageShape s = ImageShape.of(x, who);
        float[] out = new float[x.size()];
        for (int n = 0; n < s.images(); n++) {
            int base = n * s.imageSize();
            sample(x.data(), x.offset() + base, s.height(), s.width(), s.channels(),
                    draw.next(s.height(), s.width()), out, base);
        }
        return Tensor.wrap(out, 0, x.shape());
    }

    /**
     * Writes image {@code (h, w, c)} at {@code in[inBase]} transformed by {@code t = {a0, a1, a2, b0, b1, b2}} to
     * {@code out[outBase]}.
     */
    void sample(float[] in, int inBase, int h, int w, int c, double[] t, float[] out, int outBase) {
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

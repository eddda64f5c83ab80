package dev.brisk.ops.image;

import java.util.SplittableRandom;

/**
 * Keras' {@code RandomContrast}: for each image a factor {@code k} is drawn from {@code [1 - lower, 1 + upper]} and
 * each channel becomes {@code (x - mean) * k + mean}, {@code mean} that channel's mean over the image, clipped to
 * {@code [low, high]} (Keras' {@code value_range}). The gradient passes where the value lies within the range
 * (TensorFlow's {@code clip_by_value} rule, bounds included): {@code dx = k g + (1 - k) mean(g)} per channel, with
 * {@code g} the passed {@code dy}.
 */
public final class ContrastAugment implements ImageAugment {
    private static final String WHO = "RandomContrast";
    private final FactorRange factor;
    private final float low;
    private final float high;

    /**
     * Contrast factors in {@code [1 - lower, 1 + upper]}, values clipped to {@code [low, high]}.
     *
     * @param lower how far below 1 the factor may go, in [0, 1]
     * @param upper how far above 1 it may go, at least 0
     * @param low the lowest output value (Keras' {@code value_range[0]})
     * @param high the highest output value
     * @throws IllegalArgumentException naming the argument when a bound is out of range
     */
    public ContrastAugment(double lower, double upper, float low, float high) {
        if (!(lower >= 0 && lower <= 1) || !(upper >= 0) || !Double.isFinite(upper)) {
            throw new IllegalArgumentException(WHO + ": factor must be (lower, upper) with lower in [0, 1] and "
                    + "upper >= 0, got (" + lower + ", " + upper + ")");
        }
        if (!(low < high)) {
            throw new IllegalArgumentException(WHO + ": value_range must be (low, high) with low < high, got ("
                    + low + ", " + high + ")");
        }
        this.factor = new FactorRange(1 - lower, 1 + upper);
        this.low = low;
        this.high = high;
    }

    @Override
    public String name() {
        return WHO;
    }

    @Override
    public void forward(float[] x, int xOff, float[] y, int yOff, int h, int w, int c, SplittableRandom random) {
        adjust(x, xOff, y, yOff, h * w, c, (float) factor.draw(random));
    }

    @Override
    public void skip(SplittableRandom random, int h, int w) {
        factor.draw(random);
    }

    @Override
    public void backward(float[] x, int xOff, float[] dy, int dyOff, float[] dx, int dxOff, int h, int w, int c,
            SplittableRandom random) {
        float k = (float) factor.draw(random);
        int pixels = h * w;
        for (int ch = 0; ch < c; ch++) {
            float mean = mean(x, xOff, pixels, c, ch);
            double passed = 0;
            for (int p = 0; p < pixels; p++) {
                int i = p * c + ch;
                float v = (x[xOff + i] - mean) * k + mean;
                float g = v >= low && v <= high ? dy[dyOff + i] : 0f;
                dx[dxOff + i] = g;
                passed += g;
            }
            float shift = (float) ((1 - k) * passed / pixels);
            for (int p = 0; p < pixels; p++) {
                int i = dxOff + p * c + ch;
                dx[i] = k * dx[i] + shift;
            }
        }
    }

    /**
     * Applies contrast factor {@code k} to one image of {@code pixels} pixels and {@code c} channels, clipped.
     *
     * @param x the source image
     * @param xOff index of its first element
     * @param y receives the adjusted image
     * @param yOff index of its first element
     * @param pixels height times width
     * @param c the channels
     * @param k the contrast factor
     */
    public void adjust(float[] x, int xOff, float[] y, int yOff, int pixels, int c, float k) {
        for (int ch = 0; ch < c; ch++) {
            float mean = mean(x, xOff, pixels, c, ch);
            for (int p = 0; p < pixels; p++) {
                int i = p * c + ch;
                float v = (x[xOff + i] - mean) * k + mean;
                y[yOff + i] = Math.min(Math.max(v, low), high);
            }
        }
    }

    private static float mean(float[] x, int xOff, int pixels, int c, int ch) {
        double sum = 0;
        for (int p = 0; p < pixels; p++) {
            sum += x[xOff + p * c + ch];
        }
        return (float) (sum / pixels);
    }
}

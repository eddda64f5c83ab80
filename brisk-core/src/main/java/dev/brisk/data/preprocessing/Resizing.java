package dev.brisk.data.preprocessing;

import dev.brisk.ops.image.Interpolation;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.function.UnaryOperator;

/**
 * Keras' {@code Resizing(height, width, interpolation="bilinear", crop_to_aspect_ratio=False)}: each image
 * {@code (h, w, c)} (or each of a batch {@code (n, h, w, c)}) to {@code height} x {@code width}, stretching when
 * the aspect ratio changes. Pixel centres are half-pixel as in TensorFlow's {@code tf.image.resize} (and PyTorch's
 * {@code align_corners=False}): output pixel {@code o} reads input coordinate {@code (o + 0.5) * in / out - 0.5};
 * bilinear blends the two neighbours on each axis (clamped at the edges), nearest takes
 * {@code min(floor((o + 0.5) * in / out), in - 1)}. No antialiasing (Keras' default). Keras'
 * {@code crop_to_aspect_ratio=True} and {@code pad_to_aspect_ratio=True} are not here.
 */
public final class Resizing implements UnaryOperator<Tensor> {
    private final int height;
    private final int width;
    private final Interpolation interpolation;

    /**
     * Bilinear resizing to {@code height} x {@code width}.
     *
     * @param height output height in pixels
     * @param width output width in pixels
     */
    public Resizing(int height, int width) {
        this(height, width, Interpolation.BILINEAR);
    }

    /**
     * Resizing to {@code height} x {@code width} with {@code interpolation}.
     *
     * @param height output height in pixels
     * @param width output width in pixels
     * @param interpolation bilinear or nearest
     */
    public Resizing(int height, int width, Interpolation interpolation) {
        if (height < 1 || width < 1) {
            throw new IllegalArgumentException("Resizing: size must be positive, got " + height + "x" + width);
        }
        this.height = height;
        this.width = width;
        this.interpolation = java.util.Objects.requireNonNull(interpolation, "interpolation");
    }

    @Override
    public Tensor apply(Tensor x) {
        ImageShape s = ImageShape.of(x, "Resizing");
        int c = s.channels();
        int[] dims = x.shape().dims();
        dims[dims.length - 3] = height;
        dims[dims.length - 2] = width;
        float[] out = new float[s.images() * height * width * c];
        Axis[] ys = axis(s.height(), height);
        Axis[] xs = axis(s.width(), width);
        float[] in = x.data();
        for (int n = 0; n < s.images(); n++) {
            int src = x.offset() + n * s.imageSize();
            int dst = n * height * width * c;
            for (int oy = 0; oy < height; oy++) {
                Axis ay = ys[oy];
                for (int ox = 0; ox < width; ox++) {
                    Axis ax = xs[ox];
                    int o = dst + (oy * width + ox) * c;
                    for (int ch = 0; ch < c; ch++) {
                        float tl = in[src + (ay.lo * s.width() + ax.lo) * c + ch];
                        float tr = in[src + (ay.lo * s.width() + ax.hi) * c + ch];
                        float bl = in[src + (ay.hi * s.width() + ax.lo) * c + ch];
                        float br = in[src + (ay.hi * s.width() + ax.hi) * c + ch];
                        float top = tl + (tr - tl) * ax.frac;
                        float bottom = bl + (br - bl) * ax.frac;
                        out[o + ch] = top + (bottom - top) * ay.frac;
                    }
                }
            }
        }
        return Tensor.wrap(out, 0, Shape.of(dims));
    }

    /** One output coordinate's two source pixels and the weight of the second (0 for nearest). */
    private record Axis(int lo, int hi, float frac) {
    }

    private Axis[] axis(int in, int out) {
        float scale = (float) in / out;
        Axis[] axes = new Axis[out];
        for (int o = 0; o < out; o++) {
            if (interpolation == Interpolation.NEAREST) {
                int i = Math.min((int) Math.floor((o + 0.5f) * scale), in - 1);
                axes[o] = new Axis(i, i, 0f);
            } else {
                // TensorFlow's legacy-free rule: lower = max(floor(src), 0), upper = min(ceil(src), in - 1).
                float src = (o + 0.5f) * scale - 0.5f;
                float floor = (float) Math.floor(src);
                axes[o] = new Axis(Math.max((int) floor, 0), Math.min((int) Math.ceil(src), in - 1), src - floor);
            }
        }
        return axes;
    }

    @Override
    public String toString() {
        return "Resizing(" + height + ", " + width + ", " + interpolation.name().toLowerCase(java.util.Locale.ROOT)
                + ")";
    }
}

package dev.brisk.data.preprocessing;

import dev.brisk.data.ElementwiseTransform;
import dev.brisk.tensor.Tensor;

/**
 * Keras' {@code Rescaling}: {@code x * scale + offset}, element by element, on a new tensor (or in place, see
 * {@link ElementwiseTransform}).
 */
public final class Rescaling implements ElementwiseTransform {
    private final float scale;
    private final float offset;
    private final boolean divide;

    /**
     * {@code x * scale + offset}; for example {@code (1 / 127.5f, -1)} maps [0, 255] to [-1, 1].
     *
     * @param scale the factor
     * @param offset the value added after scaling
     */
    public Rescaling(float scale, float offset) {
        this(scale, offset, false);
    }

    /**
     * {@code x * scale}.
     *
     * @param scale the factor
     */
    public Rescaling(float scale) {
        this(scale, 0f, false);
    }

    private Rescaling(float scale, float offset, boolean divide) {
        if (!Float.isFinite(scale) || !Float.isFinite(offset)) {
            throw new IllegalArgumentException("rescaling needs a finite scale and offset, got " + scale + " and "
                    + offset);
        }
        this.scale = scale;
        this.offset = offset;
        this.divide = divide;
    }

    /**
     * {@code x / divisor}: exactly what {@code IdxDatasets.load(..., divisor)} and {@code FashionMnist} compute
     * ({@code x * (1 / 255f)} differs from {@code x / 255f} in the last bit for half of the pixel values).
     *
     * @param divisor the divisor
     * @return the rescaling
     */
    public static Rescaling divideBy(float divisor) {
        if (divisor == 0 || !Float.isFinite(divisor)) {
            throw new IllegalArgumentException("cannot divide by " + divisor);
        }
        return new Rescaling(divisor, 0f, true);
    }

    @Override
    public Tensor apply(Tensor x) {
        float[] out = new float[x.size()];
        rescale(x.data(), x.offset(), out, 0, out.length);
        return Tensor.wrap(out, 0, x.shape());
    }

    @Override
    public void applyInPlace(Tensor x) {
        rescale(x.data(), x.offset(), x.data(), x.offset(), x.size());
    }

    private void rescale(float[] in, int inBase, float[] out, int outBase, int n) {
        for (int i = 0; i < n; i++) {
            out[outBase + i] = divide ? in[inBase + i] / scale : in[inBase + i] * scale + offset;
        }
    }

    @Override
    public String toString() {
        return divide ? "Rescaling(x / " + scale + ")" : "Rescaling(x * " + scale + " + " + offset + ")";
    }
}

package dev.brisk.data.preprocessing;

import dev.brisk.tensor.Tensor;
import java.util.function.UnaryOperator;

/** Keras' {@code Rescaling}: {@code x * scale + offset}, element by element, on a new tensor. */
public final class Rescaling implements UnaryOperator<Tensor> {
    private final float scale;
    private final float offset;
    private final boolean divide;

    /** {@code x * scale + offset}; for example {@code (1 / 127.5f, -1)} maps [0, 255] to [-1, 1]. */
    public Rescaling(float scale, float offset) {
        this(scale, offset, false);
    }

    /** {@code x * scale}. */
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
        float[] in = x.data();
        int base = x.offset();
        for (int i = 0; i < out.length; i++) {
            out[i] = divide ? in[base + i] / scale : in[base + i] * scale + offset;
        }
        return Tensor.wrap(out, 0, x.shape());
    }

    @Override
    public String toString() {
        return divide ? "Rescaling(x / " + scale + ")" : "Rescaling(x * " + scale + " + " + offset + ")";
    }
}

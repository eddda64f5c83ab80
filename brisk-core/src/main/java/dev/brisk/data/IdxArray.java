package dev.brisk.data;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.nio.file.Path;

/**
 * The decoded contents of one IDX file: its element type, its dimensions and its values widened (or, for
 * doubles, narrowed) to float32 in row-major order. Values are not rescaled: MNIST pixels stay in [0, 255].
 *
 * @param source the file it was read from (used in error messages)
 * @param type the element type declared in the file
 * @param shape the dimensions declared in the header
 * @param values {@code shape.size()} values, row-major; owned by this array and shared by {@link #toTensor()}
 */
public record IdxArray(Path source, IdxType type, Shape shape, float[] values) {

    /** Checks that {@code values} fills {@code shape}. */
    public IdxArray {
        if (values.length != shape.size()) {
            throw new IllegalArgumentException(values.length + " values do not fill shape " + shape + " of " + source);
        }
    }

    /**
     * The first dimension (number of samples), or 1 for a rank-0 array.
     *
     * @return the sample count
     */
    public int count() {
        return shape.rank() == 0 ? 1 : shape.dim(0);
    }

    /**
     * A tensor viewing {@link #values()} without copying.
     *
     * @return a float tensor of the array's shape
     */
    public Tensor toTensor() {
        return Tensor.wrap(values, 0, shape);
    }
}

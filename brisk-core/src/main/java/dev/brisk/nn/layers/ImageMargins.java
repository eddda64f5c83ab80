package dev.brisk.nn.layers;

import dev.brisk.nn.Layer;
import dev.brisk.tensor.Shape;
import java.util.List;

/**
 * The rows above and below and the columns left and right of an NHWC image that ZeroPadding2D adds and Cropping2D
 * cuts off (Keras' {@code ((top, bottom), (left, right))}): checked, applied to a sample's shape and written to the
 * config the same way for both layers.
 *
 * @param top rows above
 * @param bottom rows below
 * @param left columns on the left
 * @param right columns on the right
 */
record ImageMargins(int top, int bottom, int left, int right) {

    /**
     * Margins checked to be at least 0.
     *
     * @param layer Keras' class name of the layer, for the error
     * @param what the margins' name in the error ({@code paddings}, {@code croppings})
     * @throws IllegalArgumentException naming the layer and the margins when one is negative
     */
    static ImageMargins checked(String layer, String what, int top, int bottom, int left, int right) {
        ImageMargins m = new ImageMargins(top, bottom, left, right);
        if (top < 0 || bottom < 0 || left < 0 || right < 0) {
            throw new IllegalArgumentException(layer + " needs " + what + " >= 0, got " + m.pairs());
        }
        return m;
    }

    /**
     * A sample's shape with the margins added ({@code sign} 1) or cut off ({@code sign} -1).
     *
     * @param layer the layer, named in the error
     * @param in the sample's shape, {@code [height, width, channels]}
     * @param sign 1 to add the margins, -1 to remove them
     * @return the resized shape; its height or width may be 0 or less when cut, for the caller to refuse
     * @throws IllegalArgumentException naming the layer when the sample is not an image
     */
    Shape resize(Layer layer, Shape in, int sign) {
        if (in.rank() != 3) {
            throw new IllegalArgumentException(layer.kerasClassName() + " takes [height, width, channels] samples, "
                    + "got " + Layer.withBatch(in));
        }
        return Shape.of(in.dim(0) + sign * (top + bottom), in.dim(1) + sign * (left + right), in.dim(2));
    }

    /** Keras' config value {@code [[top, bottom], [left, right]]}. */
    List<List<Integer>> kerasValue() {
        return List.of(List.of(top, bottom), List.of(left, right));
    }

    /** The margins as {@code {top, bottom, left, right}}. */
    int[] toArray() {
        return new int[] {top, bottom, left, right};
    }

    /** The margins as Keras writes them, {@code ((top, bottom), (left, right))}, for errors. */
    String pairs() {
        return "((" + top + ", " + bottom + "), (" + left + ", " + right + "))";
    }
}

package dev.brisk.ops.image;

import java.util.Locale;

/**
 * What the geometric augmentations read outside the image (Keras' {@code fill_mode}). Keras' {@code "wrap"} and
 * {@code "nearest"} are not here and {@link #of} refuses them by name.
 */
public enum FillMode {
    /** Mirror about the edge of the last pixel: {@code (d c b a | a b c d | d c b a)} (Keras' default). */
    REFLECT,
    /** A constant {@code fill_value}: {@code (k k k k | a b c d | k k k k)}. */
    CONSTANT;

    /**
     * Keras' name ({@code "reflect"}, {@code "constant"}) to the mode.
     *
     * @param name the Keras name
     * @param who the layer asking, for the error
     * @return the mode
     */
    public static FillMode of(String name, String who) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "reflect" -> REFLECT;
            case "constant" -> CONSTANT;
            default -> throw new IllegalArgumentException(who + ": fill_mode \"" + name
                    + "\" is not supported (Brisk has \"reflect\" and \"constant\")");
        };
    }
}

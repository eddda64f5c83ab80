package dev.brisk.ops.image;

import java.util.Locale;

/** How Resizing and the geometric augmentations read between pixels (Keras' {@code interpolation}). */
public enum Interpolation {
    /** Linear in both directions from the four nearest pixels (Keras' default). */
    BILINEAR,
    /** The nearest pixel. */
    NEAREST;

    /**
     * Keras' name ({@code "bilinear"}, {@code "nearest"}) to the mode; other Keras modes ({@code "bicubic"},
     * {@code "area"}, {@code "lanczos3"}, ...) are refused by name rather than replaced by another.
     *
     * @param name the Keras name
     * @param who the layer asking, for the error
     * @return the mode
     */
    public static Interpolation of(String name, String who) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "bilinear" -> BILINEAR;
            case "nearest" -> NEAREST;
            default -> throw new IllegalArgumentException(who + ": interpolation \"" + name
                    + "\" is not supported (Brisk has \"bilinear\" and \"nearest\")");
        };
    }
}

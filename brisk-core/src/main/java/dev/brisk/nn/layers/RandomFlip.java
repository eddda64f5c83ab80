package dev.brisk.nn.layers;

import dev.brisk.data.preprocessing.RandomFlip.Mode;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Keras' {@code RandomFlip} layer: in training flips each image left-right, top-bottom or both, each with
 * probability 1/2 (the pipeline map function's draws, {@link dev.brisk.data.preprocessing.RandomFlip}); the identity
 * outside training. Keras' default mode is {@code "horizontal_and_vertical"}.
 */
public final class RandomFlip extends RandomImageLayer {
    private final Mode mode;

    /**
     * A flip layer.
     *
     * @param mode which flips may happen
     * @param name the layer's name, or null for an automatic one
     */
    public RandomFlip(Mode mode, String name) {
        super(dev.brisk.data.preprocessing.RandomFlip.augment(Objects.requireNonNull(mode, "mode")), name);
        this.mode = mode;
    }

    /**
     * Keras' mode name ({@code "horizontal"}, {@code "vertical"}, {@code "horizontal_and_vertical"}) to the mode.
     *
     * @param name the Keras name
     * @return the mode
     * @throws IllegalArgumentException naming the mode when Keras has no such mode
     */
    public static Mode mode(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "horizontal" -> Mode.HORIZONTAL;
            case "vertical" -> Mode.VERTICAL;
            case "horizontal_and_vertical" -> Mode.HORIZONTAL_AND_VERTICAL;
            default -> throw new IllegalArgumentException("RandomFlip: mode \"" + name + "\" is not one of "
                    + "\"horizontal\", \"vertical\", \"horizontal_and_vertical\"");
        };
    }

    @Override
    public Map<String, Object> kerasConfig() {
        Map<String, Object> c = super.kerasConfig();
        c.put("mode", mode.name().toLowerCase(Locale.ROOT));
        return c;
    }
}

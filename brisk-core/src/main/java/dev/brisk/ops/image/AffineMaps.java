package dev.brisk.ops.image;

import java.util.SplittableRandom;

/**
 * Keras' geometric augmentations as draws of affine maps from output to input pixel coordinates
 * ({@link AffineSampler}), shared by the augmentation layers and the pipeline map functions so both draw and
 * transform alike. Each map follows Keras 3's (TensorFlow's {@code ImageProjectiveTransformV3} convention).
 */
public final class AffineMaps {
    private AffineMaps() {
    }

    /**
     * Flips: left-right with probability 1/2 when {@code horizontal}, then top-bottom with probability 1/2 when
     * {@code vertical} (one boolean draw for each flip that may happen).
     *
     * @param horizontal whether left-right flips may happen
     * @param vertical whether top-bottom flips may happen
     * @return the draw
     */
    public static ImageAugment.AffineDraw flips(boolean horizontal, boolean vertical) {
        return (random, h, w) -> flip(horizontal && random.nextBoolean(), vertical && random.nextBoolean(), h, w);
    }

    /**
     * Rotations by an angle drawn from {@code factor} (fractions of a full turn, positive counter-clockwise).
     *
     * @param factor the range of fractions
     * @return the draw
     */
    public static ImageAugment.AffineDraw rotations(FactorRange factor) {
        return (random, h, w) -> rotation(factor.draw(random) * 2 * Math.PI, h, w);
    }

    /**
     * Zooms: the height zoom {@code 1 + } a draw from {@code height}, then the width zoom {@code 1 + } a draw from
     * {@code width}, or the height's zoom when {@code width} is null (aspect kept).
     *
     * @param height the height fractions
     * @param width the width fractions, or null
     * @return the draw
     */
    public static ImageAugment.AffineDraw zooms(FactorRange height, FactorRange width) {
        return (random, h, w) -> {
            double zh = 1 + height.draw(random);
            double zw = width == null ? zh : 1 + width.draw(random);
            return zoom(zh, zw, h, w);
        };
    }

    /**
     * Shifts by a draw from {@code height} times the height (down) and then one from {@code width} times the width
     * (right).
     *
     * @param height the vertical fractions
     * @param width the horizontal fractions
     * @return the draw
     */
    public static ImageAugment.AffineDraw translations(FactorRange height, FactorRange width) {
        return (random, h, w) -> {
            double dy = height.draw(random) * h;
            double dx = width.draw(random) * w;
            return translation(dy, dx);
        };
    }

    /**
     * The map that flips an {@code h} x {@code w} image.
     *
     * @param leftRight whether to flip along the width
     * @param topBottom whether to flip along the height
     * @param h the height
     * @param w the width
     * @return the map
     */
    public static double[] flip(boolean leftRight, boolean topBottom, int h, int w) {
        return new double[] {leftRight ? -1 : 1, 0, leftRight ? w - 1 : 0, 0, topBottom ? -1 : 1,
            topBottom ? h - 1 : 0};
    }

    /**
     * Keras' rotation about the centre {@code ((w - 1) / 2, (h - 1) / 2)}: output {@code (x, y)} reads input
     * {@code (cx + cos a (x - cx) - sin a (y - cy), cy + sin a (x - cx) + cos a (y - cy))}.
     *
     * @param angle radians, positive counter-clockwise
     * @param h the height
     * @param w the width
     * @return the map
     */
    public static double[] rotation(double angle, int h, int w) {
        double cos = Math.cos(angle);
        double sin = Math.sin(angle);
        double xOffset = ((w - 1) - (cos * (w - 1) - sin * (h - 1))) / 2;
        double yOffset = ((h - 1) - (sin * (w - 1) + cos * (h - 1))) / 2;
        return new double[] {cos, -sin, xOffset, sin, cos, yOffset};
    }

    /**
     * Keras' zoom about the centre: output {@code (x, y)} reads input {@code (cx + zw (x - cx), cy + zh (y - cy))}
     * (a zoom above 1 zooms out).
     *
     * @param zh the height zoom
     * @param zw the width zoom
     * @param h the height
     * @param w the width
     * @return the map
     */
    public static double[] zoom(double zh, double zw, int h, int w) {
        return new double[] {zw, 0, (w - 1) / 2.0 * (1 - zw), 0, zh, (h - 1) / 2.0 * (1 - zh)};
    }

    /**
     * A shift by {@code dy} pixels down and {@code dx} right.
     *
     * @param dy the vertical shift
     * @param dx the horizontal shift
     * @return the map
     */
    public static double[] translation(double dy, double dx) {
        return new double[] {1, 0, -dx, 0, 1, -dy};
    }

    /**
     * A draw that ignores the generator and always gives {@code map(h, w)}.
     *
     * @param map the fixed map for a given size
     * @return the draw
     */
    public static ImageAugment.AffineDraw fixed(java.util.function.BiFunction<Integer, Integer, double[]> map) {
        return (SplittableRandom random, int h, int w) -> map.apply(h, w);
    }
}

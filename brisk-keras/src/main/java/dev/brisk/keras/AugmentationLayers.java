package dev.brisk.keras;

import dev.brisk.nn.layers.RandomContrast;
import dev.brisk.nn.layers.RandomFlip;
import dev.brisk.nn.layers.RandomImageLayer;
import dev.brisk.nn.layers.RandomRotation;
import dev.brisk.nn.layers.RandomTranslation;
import dev.brisk.nn.layers.RandomZoom;
import dev.brisk.ops.image.FillMode;
import dev.brisk.ops.image.Interpolation;
import java.util.List;
import java.util.Map;

/**
 * Keras 3's random augmentation layers in {@code config.json}: {@code RandomFlip}, {@code RandomRotation},
 * {@code RandomZoom}, {@code RandomTranslation} and {@code RandomContrast}, with Keras' argument names and defaults
 * (a factor is a number {@code f}, meaning {@code [-f, f]}, or a pair; {@code reflect} fill, bilinear, fill value 0,
 * value range [0, 255]) and the layer's seed when the file records one.
 */
final class AugmentationLayers {
    private AugmentationLayers() {
    }

    /** Adds the augmentation layers' factories to {@code m}. */
    static void register(Map<String, LayerFactory> m) {
        m.put("RandomFlip", c -> seeded(c, new RandomFlip(RandomFlip.mode(c.string("mode",
                "horizontal_and_vertical")), KerasRegistry.name(c))));
        m.put("RandomRotation", c -> {
            double[] f = factor(c, "factor", true);
            return seeded(c, new RandomRotation(f[0], f[1], fill(c), c.decimal("fill_value", 0f),
                    interpolation(c), KerasRegistry.name(c)));
        });
        m.put("RandomZoom", c -> {
            double[] width = c.raw("width_factor") == null ? null : factor(c, "width_factor", true);
            return seeded(c, new RandomZoom(factor(c, "height_factor", true), width, fill(c),
                    c.decimal("fill_value", 0f), interpolation(c), KerasRegistry.name(c)));
        });
        m.put("RandomTranslation", c -> seeded(c, new RandomTranslation(factor(c, "height_factor", true),
                factor(c, "width_factor", true), fill(c), c.decimal("fill_value", 0f), interpolation(c),
                KerasRegistry.name(c))));
        m.put("RandomContrast", c -> {
            double[] f = factor(c, "factor", false);
            float[] range = {0f, 255f};
            List<Object> r = c.list("value_range");
            if (!r.isEmpty()) {
                if (r.size() != 2 || !(r.get(0) instanceof Number lo) || !(r.get(1) instanceof Number hi)) {
                    throw c.error("value_range", "must be [low, high]");
                }
                range = new float[] {lo.floatValue(), hi.floatValue()};
            }
            return seeded(c, new RandomContrast(f[0], f[1], range[0], range[1], KerasRegistry.name(c)));
        });
    }

    /**
     * Keras' factor: a number {@code f} is {@code {-f, f}} (or {@code {f, f}} when not {@code negate}: RandomContrast's
     * distances below and above 1), a pair is itself.
     */
    private static double[] factor(ConfigView c, String key, boolean negate) {
        c.requireAbsentOr("data_format", "channels_last");
        Object v = c.raw(key);
        if (v instanceof Number n) {
            double f = n.doubleValue();
            return new double[] {negate ? -f : f, f};
        }
        if (v instanceof List<?> l && l.size() == 2 && l.get(0) instanceof Number a && l.get(1) instanceof Number b) {
            return new double[] {a.doubleValue(), b.doubleValue()};
        }
        throw c.error(key, v == null ? "missing" : "must be a number or [lower, upper], found " + v);
    }

    private static FillMode fill(ConfigView c) {
        return FillMode.of(c.string("fill_mode", "reflect"), c.what());
    }

    private static Interpolation interpolation(ConfigView c) {
        return Interpolation.of(c.string("interpolation", "bilinear"), c.what());
    }

    private static RandomImageLayer seeded(ConfigView c, RandomImageLayer layer) {
        c.requireAbsentOr("data_format", "channels_last");
        if (c.raw("seed") != null) {
            layer.setSeed(c.longValue("seed", 0));
        }
        return layer;
    }
}

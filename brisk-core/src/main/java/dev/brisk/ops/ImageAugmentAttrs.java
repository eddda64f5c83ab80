package dev.brisk.ops;

import dev.brisk.ops.image.ImageAugment;

/**
 * A random image augmentation ({@link OpType#IMAGE_AUGMENT}): what it does to one image, and the salt that is mixed
 * with each step's seed (distinct per layer, as dropout's).
 *
 * @param augment the augmentation
 * @param salt the layer's own seed
 */
public record ImageAugmentAttrs(ImageAugment augment, long salt) implements Attrs {
}

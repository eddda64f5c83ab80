/**
 * Preprocessing as pipeline map functions, after Keras' preprocessing layers: {@link Rescaling},
 * {@link Normalization} (adapted to data), {@link Resizing}, {@link RandomFlip}, {@link RandomCrop},
 * {@link RandomRotation}, {@link RandomZoom}, {@link RandomTranslation} and {@link RandomContrast} (seeded
 * augmentations, for the training pipeline only) and {@link OneHot}. They transform tensors; {@link dev.brisk.data.Sample#features} and
 * {@link dev.brisk.data.Sample#labels} apply them to one part of each sample.
 */
package dev.brisk.data.preprocessing;

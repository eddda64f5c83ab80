/**
 * Preprocessing as pipeline map functions, after Keras' preprocessing layers: {@link Rescaling},
 * {@link Normalization} (adapted to data), {@link RandomFlip} and {@link RandomCrop} (seeded augmentations) and
 * {@link OneHot}. They transform tensors; {@link dev.brisk.data.Sample#features} and
 * {@link dev.brisk.data.Sample#labels} apply them to one part of each sample.
 */
package dev.brisk.data.preprocessing;

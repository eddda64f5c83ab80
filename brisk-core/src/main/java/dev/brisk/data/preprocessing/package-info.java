/**
 * Preprocessing as pipeline map functions, after Keras' preprocessing layers: {@link Rescaling},
 * {@link Normalization} (adapted to data), {@link Resizing}, {@link RandomFlip}, {@link RandomCrop},
 * {@link RandomRotation}, {@link RandomZoom}, {@link RandomTranslation} and {@link RandomContrast} (seeded
 * augmentations, for the training pipeline only), {@link OneHot}, and the column preprocessing of Keras:
 * {@link Hashing} (FarmHash Fingerprint64 or salted SipHash-2-4, implemented here so the bins are Keras'),
 * {@link Discretization} (given boundaries or Keras' approximate quantiles), {@link CategoryEncoding},
 * {@link IntegerLookup} and {@link Vocabulary} (Keras' {@code StringLookup}). They transform tensors;
 * {@link dev.brisk.data.Sample#features} and {@link dev.brisk.data.Sample#labels} apply them to one part of each
 * sample.
 */
package dev.brisk.data.preprocessing;

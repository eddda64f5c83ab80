package dev.brisk.callbacks;

/** The shape of a fit run, given to callbacks before it starts (Keras' {@code params}). */
public record TrainingParams(int epochs, int stepsPerEpoch, int samplesPerEpoch, int verbose) {
}

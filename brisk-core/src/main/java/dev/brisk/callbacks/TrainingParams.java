package dev.brisk.callbacks;

/**
 * The shape of a fit run, given to callbacks before it starts (Keras' {@code params}).
 *
 * @param epochs the number of epochs to run
 * @param stepsPerEpoch batches per epoch, or 0 for a pipeline of unknown length without {@code stepsPerEpoch}
 * @param samplesPerEpoch samples per epoch; for a pipeline, the steps times the size of its first batch
 * @param verbose the fit's verbosity: 0 silent, 1 progress bar, 2 one line per epoch
 */
public record TrainingParams(int epochs, int stepsPerEpoch, int samplesPerEpoch, int verbose) {
}

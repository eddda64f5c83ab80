package dev.brisk.data;

/**
 * A dataset's standard training and test partitions.
 *
 * @param train the training samples
 * @param test the held-out test samples
 */
public record TrainTestSplit(InMemoryDataset train, InMemoryDataset test) {
}

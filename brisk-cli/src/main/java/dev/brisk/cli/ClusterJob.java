package dev.brisk.cli;

import dev.brisk.cli.Workloads.Workload;
import dev.brisk.data.InMemoryDataset;
import dev.brisk.nn.Model;
import java.nio.file.Path;

/**
 * One {@code brisk train --master} run, as the command line read it.
 *
 * @param workload the reference workload
 * @param data the Fashion-MNIST folder (read by every executor at this path)
 * @param trainSize the training samples to use (the first ones)
 * @param test the test set, evaluated on the driver
 * @param model the driver's compiled model: its weights start the workers, the trained ones come back into it
 * @param epochs the epochs
 * @param batchSize the global batch size
 * @param seed the shuffle seed
 * @param master the Spark master URL
 * @param workers the number of workers
 * @param checkpoint the checkpoint folder, or null for none
 * @param checkpointEvery steps between checkpoints
 * @param mode "compiled"
 * @param overlap whether the gradient exchange overlaps the backward pass ({@code --overlap})
 */
public record ClusterJob(Workload workload, Path data, int trainSize, InMemoryDataset test, Model model, int epochs,
                         int batchSize, long seed, String master, int workers, String checkpoint,
                         int checkpointEvery, String mode, boolean overlap) {
}

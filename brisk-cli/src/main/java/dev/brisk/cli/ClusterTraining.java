package dev.brisk.cli;

import dev.brisk.callbacks.History;
import java.io.IOException;
import java.io.PrintStream;

/**
 * Trains a workload on a cluster: {@code brisk train --master URL}. The implementation lives in {@code brisk-spark}
 * (which depends on this module, not the other way round), found with {@link java.util.ServiceLoader} when Spark and
 * brisk-spark are on the class path; the {@code ./brisk} launcher puts them there when it sees {@code --master}.
 */
public interface ClusterTraining {
    /**
     * What a cluster run gives back to the command, which then evaluates the model and prints the RESULT line.
     *
     * @param history each epoch's logs, averaged over the workers ({@code epoch_s} and {@code allreduce_ms} included)
     * @param threadsPerWorker the threads each worker's kernels used
     */
    record Run(History history, int threadsPerWorker) {
    }

    /**
     * Trains {@code job} (the trained weights end up in {@code job.model()}) and prints its progress to {@code out}.
     *
     * @param job what to train, and where
     * @param out where the progress goes
     * @return the run's history
     * @throws IOException when data or checkpoints cannot be read or written
     */
    Run train(ClusterJob job, PrintStream out) throws IOException;
}

package dev.brisk.cli;

import java.io.IOException;
import java.io.PrintStream;

/**
 * Trains a workload on a cluster: {@code brisk train --master URL}. The implementation lives in {@code brisk-spark}
 * (which depends on this module, not the other way round), found with {@link java.util.ServiceLoader} when Spark and
 * brisk-spark are on the class path; the {@code ./brisk} launcher puts them there when it sees {@code --master}.
 */
public interface ClusterTraining {
    /**
     * Trains {@code job} and prints its progress, the test result and the RESULT line to {@code out}.
     *
     * @param job what to train, and where
     * @param out where the report goes
     * @throws IOException when data or checkpoints cannot be read or written
     */
    void train(ClusterJob job, PrintStream out) throws IOException;
}

package dev.brisk.nn;

import dev.brisk.distribute.RingTransport;
import java.util.Objects;

/**
 * How {@code fit} spreads a training step over replicas (Keras' {@code keras.distribution.DataParallel}, TensorFlow's
 * {@code MirroredStrategy} / {@code MultiWorkerMirroredStrategy}): synchronous data parallelism. Each replica
 * computes the gradients of its shard of the global batch ({@link Fit#batchSize} is the global batch), the
 * gradients are summed over the replicas (each weighted by its shard's share of the batch), and every replica
 * applies the same optimizer update. Training with N replicas and a global batch B is the computation of one
 * process training with batch B, up to the order of the floating-point additions.
 *
 * <p>The sum always adds in the ring all-reduce's order ({@link dev.brisk.distribute.RingAllReduce}), so replicas
 * in one process and workers on separate machines give the same bits for the same shards.
 *
 * <p>The loss and the metrics in the logs are those of the whole global batch, as Keras reports them, and the
 * callbacks run once.
 */
public final class Distribution {
    enum Mode { SINGLE, REPLICAS, WORKER }

    private final Mode mode;
    private final int replicas;
    private final RingTransport ring;

    private Distribution(Mode mode, int replicas, RingTransport ring) {
        this.mode = mode;
        this.replicas = replicas;
        this.ring = ring;
    }

    /**
     * One process runs each step whole, its kernels split over the thread budget: the default, which measured
     * fastest for the reference workloads on two cores (docs/distributed.md).
     *
     * @return the single-process distribution
     */
    public static Distribution singleProcess() {
        return new Distribution(Mode.SINGLE, 1, null);
    }

    /**
     * {@code n} replicas in this JVM, each computing its shard's gradients on one thread of the budget (its kernels
     * are not split further), the gradients reduced in memory. They share the model's weights, which only the one
     * update writes, so a model whose training step writes other state (batch normalization's moving statistics)
     * is refused: each replica would write it at once.
     *
     * @param n the number of replicas, at least 1
     * @return the distribution
     */
    public static Distribution replicas(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("replicas must be at least 1, got " + n);
        }
        return new Distribution(Mode.REPLICAS, n, null);
    }

    /**
     * This process is rank {@code ring.rank()} of {@code ring.size()} workers (each with its own copy of the model
     * and the same initial weights): the data given to {@code fit} is this worker's share, each step takes this
     * rank's part of the global batch from it, and the gradients, the batch's loss and the model's other state
     * (batch-norm statistics, averaged) are summed over {@code ring}. Workers whose shares differ in length run
     * the same number of steps: a worker out of data contributes nothing to the last steps. The epoch's metrics are
     * averaged over the workers, weighted by their samples. {@code brisk-spark} runs one such worker per Spark task.
     *
     * @param ring this worker's links to the others
     * @return the distribution
     */
    public static Distribution worker(RingTransport ring) {
        Objects.requireNonNull(ring, "ring");
        return new Distribution(Mode.WORKER, ring.size(), ring);
    }

    /**
     * The number of replicas (in-process replicas, or workers of the ring) that share each global batch.
     *
     * @return the replica count, 1 for a single process
     */
    public int replicaCount() {
        return replicas;
    }

    Mode mode() {
        return mode;
    }

    RingTransport ring() {
        return ring;
    }

    @Override
    public String toString() {
        return switch (mode) {
            case SINGLE -> "single process";
            case REPLICAS -> replicas + " in-process replica(s)";
            case WORKER -> "worker " + ring.rank() + " of " + ring.size();
        };
    }
}

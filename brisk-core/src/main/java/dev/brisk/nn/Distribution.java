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

    /** The overlapped exchange's default bucket: a megabyte, few enough exchanges to keep the ring's latency small. */
    public static final int DEFAULT_BUCKET_BYTES = 1 << 20;

    private final Mode mode;
    private final int replicas;
    private final RingTransport ring;
    /** Floats per bucket of the overlapped exchange; 0 when the exchange follows the step. */
    private final int bucketFloats;

    private Distribution(Mode mode, int replicas, RingTransport ring, int bucketFloats) {
        this.mode = mode;
        this.replicas = replicas;
        this.ring = ring;
        this.bucketFloats = bucketFloats;
    }

    /**
     * One process runs each step whole, its kernels split over the thread budget: the default, which measured
     * fastest for the reference workloads on two cores (docs/distributed.md).
     *
     * @return the single-process distribution
     */
    public static Distribution singleProcess() {
        return new Distribution(Mode.SINGLE, 1, null, 0);
    }

    /**
     * {@code n} replicas in this JVM, each computing its shard's gradients on one thread of the budget (its kernels
     * are not split further), the gradients reduced in memory. They share the model's weights, which only the one
     * update writes. State that a training step writes (batch normalization's moving statistics) is computed by
     * each replica from its own shard and averaged over the replicas, as Keras' {@code MirroredStrategy} keeps it
     * (batch statistics per replica, not synchronized across them).
     *
     * @param n the number of replicas, at least 1
     * @return the distribution
     */
    public static Distribution replicas(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("replicas must be at least 1, got " + n);
        }
        return new Distribution(Mode.REPLICAS, n, null, 0);
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
        return new Distribution(Mode.WORKER, ring.size(), ring, 0);
    }

    /**
     * Whether the gradient exchange overlaps the backward pass (off by default). On, the gradients are grouped
     * into buckets of about a megabyte in the order the backward pass finishes them (the last layer's first), and
     * each bucket is summed on a communication thread as soon as the last kernel writing into it has run, while the
     * backward pass goes on; the optimizer's update waits for every bucket. The sums are bit for bit those of the
     * exchange after the step (each element is added in the same order). It pays where the exchange takes a
     * sizeable part of the step (many workers, slow networks) and a core is free for the communication thread; on
     * a machine whose cores the replicas already fill, it may cost more than it hides, hence off by default. The
     * logs' {@code allreduce_ms} is then the exchange time the backward pass did not hide.
     *
     * @param on whether to overlap
     * @return a distribution like this one, with the overlap on or off
     */
    public Distribution overlap(boolean on) {
        return on ? overlap(DEFAULT_BUCKET_BYTES) : new Distribution(mode, replicas, ring, 0);
    }

    /**
     * Overlaps the gradient exchange with the backward pass ({@link #overlap(boolean)}) in buckets of about
     * {@code bucketBytes} (a bucket holds whole variables: one larger than that is a bucket of its own).
     *
     * @param bucketBytes bytes of gradients per bucket, at least 4
     * @return a distribution like this one, with the overlap on
     */
    public Distribution overlap(int bucketBytes) {
        if (mode == Mode.SINGLE) {
            throw new IllegalArgumentException("a single process exchanges no gradients: overlap needs replicas "
                    + "or workers");
        }
        if (bucketBytes < 4) {
            throw new IllegalArgumentException("a gradient bucket needs at least 4 bytes (one float), got "
                    + bucketBytes);
        }
        return new Distribution(mode, replicas, ring, bucketBytes / 4);
    }

    /**
     * Whether the gradient exchange overlaps the backward pass ({@link #overlap(boolean)}).
     *
     * @return true when it does
     */
    public boolean isOverlapped() {
        return bucketFloats > 0;
    }

    /** Floats per bucket of the overlapped exchange, 0 when it is off. */
    int bucketFloats() {
        return bucketFloats;
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
        String where = switch (mode) {
            case SINGLE -> "single process";
            case REPLICAS -> replicas + " in-process replica(s)";
            case WORKER -> "worker " + ring.rank() + " of " + ring.size();
        };
        return where + (bucketFloats > 0 ? ", exchange overlapped with the backward pass" : "");
    }
}

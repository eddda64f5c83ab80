package dev.brisk.nn;

import dev.brisk.distribute.RingAllReduce;
import dev.brisk.distribute.RingOrder;
import dev.brisk.metrics.Metric;
import dev.brisk.ops.Variable;
import dev.brisk.parallel.Parallel;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * One synchronous data-parallel training step: each replica's GRADIENTS step on its shard, the gradients summed in
 * the ring's order, then one UPDATE step.
 *
 * <p>Each replica writes into its row of a flat vector
 * {@code [n g_1 .. n g_P | n | n loss | w_1 n s_1 | .. | w_S n s_S]}: its gradients, its shard size {@code n}, its
 * loss, and for each non-trainable variable the flag {@code w} (whether its step wrote the variable) times
 * {@code n}, then the variable's new value times {@code n}. After the sum, dividing by the summed {@code n} gives the
 * gradient and loss of the global batch's mean loss, whatever the shard sizes (the last batch of an epoch, a worker
 * with less data), and a replica with an empty shard simply adds zeros. With equal shards of a power-of-two size the
 * scaling is exact.
 *
 * <p>State (batch normalization's moving statistics) follows Keras' {@code MirroredStrategy}: each replica updates
 * the statistics from its own shard's batch statistics, and the replicas' results are averaged (Keras' {@code ON_READ}
 * variables with {@code MEAN} aggregation; here weighted by the shard sizes, the same for equal shards), so every
 * replica holds the same statistics after every step. A GRADIENTS step does not write the variables itself
 * ({@link dev.brisk.graph.Graph#deferAssigns}): in-process replicas share them, and each must read the statistics
 * of before the step. A variable no step writes (a frozen layer's) is left alone.
 */
final class DataParallelStep implements AutoCloseable {
    private final Model model;
    private final Distribution distribution;
    private final List<StepRunner> runners;
    private final List<Variable> trainable;
    private final List<Variable> state;
    private final int gradientLength;
    private final int length;
    private final float[][] flat;
    private final Tensor[] reduced;
    private final RingAllReduce allReduce;
    private final StepBatch[] shards;
    private final StepRunner.Result[] results;
    /** The exchange overlapped with the backward pass ({@link Distribution#overlap(boolean)}), or null. */
    private final OverlappedReduce overlapped;
    private long seedCounter;
    private long reduceNanos;
    private int reduceSteps;

    DataParallelStep(Model model, Distribution distribution, List<StepRunner> runners) {
        this.model = model;
        this.distribution = distribution;
        this.runners = runners;
        this.trainable = model.trainableVariables();
        boolean worker = distribution.mode() == Distribution.Mode.WORKER;
        this.state = model.variables().stream().filter(v -> !v.trainable()).toList();
        int p = 0;
        for (Variable v : trainable) {
            p += v.shape().size();
        }
        this.gradientLength = p;
        int s = 0;
        for (Variable v : state) {
            s += 1 + v.shape().size();
        }
        this.length = p + 2 + s;
        int rows = runners.size();
        this.flat = new float[rows][length];
        this.reduced = new Tensor[trainable.size()];
        int offset = 0;
        for (int i = 0; i < reduced.length; i++) {
            reduced[i] = Tensor.wrap(flat[0], offset, trainable.get(i).shape());
            offset += trainable.get(i).shape().size();
        }
        this.allReduce = worker ? new RingAllReduce(distribution.ring()) : null;
        this.shards = new StepBatch[rows];
        this.results = new StepRunner.Result[rows];
        int[] sizes = trainable.stream().mapToInt(v -> v.shape().size()).toArray();
        this.overlapped = distribution.isOverlapped() && sizes.length > 0 && (worker || rows > 1)
                ? new OverlappedReduce(flat, sizes, distribution.bucketFloats(), this::reduce) : null;
    }

    /** Sums {@code [from, to)} of the rows over the replicas, in the ring's order for the whole vector. */
    private void reduce(int from, int to) throws IOException {
        if (allReduce != null) {
            allReduce.sum(flat[0], 0, length, from, to);
        } else {
            RingOrder.sum(flat, flat[0], from, to, length);
        }
    }

    /** The size of shard {@code k} of {@code n} of a batch of {@code size}: sizes differ by at most one. */
    static int shardStart(int size, int n, int k) {
        return k * (size / n) + Math.min(k, size % n);
    }

    /**
     * Runs one step: {@code batch} is the global batch (in-process replicas) or this worker's part of it (null when
     * this worker has no data left for the step). Updates {@code metrics} with every local shard's predictions and
     * returns the global batch's mean loss and size.
     */
    float[] run(StepBatch batch, List<List<Metric>> metrics) {
        int rows = runners.size();
        int size = batch == null ? 0 : batch.size();
        for (int k = 0; k < rows; k++) {
            int from = shardStart(size, rows, k);
            int to = shardStart(size, rows, k + 1);
            shards[k] = to > from ? slice(batch, from, to) : null;
        }
        long step = seedCounter++;
        if (overlapped != null) {
            overlapped.beginStep();
        }
        int seedBase = distribution.mode() == Distribution.Mode.WORKER ? distribution.ring().rank() : 0;
        int seedStride = distribution.replicaCount();
        // Each replica on one thread: a region started inside this one runs its kernels inline.
        Parallel.forRange(rows, 1, (lo, hi) -> {
            for (int k = lo; k < hi; k++) {
                float seed = (float) ((step * seedStride + seedBase + k) & 0xFFFFFF);
                gradientsOf(k, seed);
            }
        });
        long reduceStart = System.nanoTime();
        if (overlapped != null) {
            // The buckets were started during the backward pass; what is left: waiting for them, then the tail
            // (shard sizes, losses, state), known only at the end of the step.
            try {
                overlapped.finish();
                reduce(gradientLength, length);
            } catch (IOException e) {
                throw exchangeFailed(e);
            }
        } else if (allReduce != null) {
            try {
                allReduce.sum(flat[0], 0, length);
            } catch (IOException e) {
                throw exchangeFailed(e);
            }
        } else if (rows > 1) {
            Parallel.forRange(length, 1 << 14, 4, (lo, hi) -> RingOrder.sum(flat, flat[0], lo, hi, length));
        }
        reduceNanos += System.nanoTime() - reduceStart;
        reduceSteps++;
        float[] sum = flat[0];
        float total = sum[gradientLength];
        Parallel.forRange(gradientLength, 1 << 14, 4, (lo, hi) -> {
            for (int i = lo; i < hi; i++) {
                sum[i] = sum[i] / total;
            }
        });
        float loss = sum[gradientLength + 1] / total;
        int offset = gradientLength + 2;
        for (Variable v : state) {
            float written = sum[offset++];
            Tensor value = v.value();
            if (written > 0) {
                for (int i = 0; i < value.size(); i++) {
                    value.set(i, sum[offset + i] / written);
                }
            }
            offset += value.size();
        }
        runners.get(0).update(reduced);
        model.finishOptimizerStep();
        for (int k = 0; k < rows; k++) {
            if (shards[k] == null) {
                continue;
            }
            for (int i = 0; i < metrics.size(); i++) {
                for (Metric m : metrics.get(i)) {
                    m.update(shards[k].y()[i], results[k].predictions()[i], results[k].mask(i),
                            Training.weightsFor(m, shards[k].weights(), i));
                }
            }
        }
        return new float[] {loss, total};
    }

    private UncheckedIOException exchangeFailed(IOException e) {
        String who = distribution.mode() == Distribution.Mode.WORKER ? "worker " + distribution.ring().rank()
                + " of " + distribution.ring().size() : "in-process replicas";
        return new UncheckedIOException(who + ": the gradient all-reduce failed: " + e.getMessage(), e);
    }

    /** Replica {@code k}'s gradients, loss and state times its shard size, into its row of the flat vector. */
    private void gradientsOf(int k, float seed) {
        float[] row = flat[k];
        StepBatch shard = shards[k];
        if (shard == null) {
            java.util.Arrays.fill(row, 0f);
            results[k] = null;
            if (overlapped != null) {
                overlapped.emptyRow(k);
            }
            return;
        }
        float n = shard.size();
        int offset = gradientLength;
        StepRunner.Result r;
        if (overlapped != null) {
            // Each gradient goes into the row as the backward pass finishes it; full buckets start their exchange.
            r = runners.get(k).shardGradients(shard, seed, overlapped.listener(k, n));
        } else {
            r = runners.get(k).shardGradients(shard, seed);
            offset = 0;
            for (Tensor g : r.gradients()) {
                float[] data = g.data();
                int start = g.offset();
                for (int i = 0; i < g.size(); i++) {
                    row[offset + i] = data[start + i] * n;
                }
                offset += g.size();
            }
        }
        results[k] = r;
        row[offset++] = n;
        row[offset++] = r.loss() * n;
        for (Variable v : state) {
            int size = v.shape().size();
            Tensor value = written(r, v);
            row[offset++] = value == null ? 0 : n;
            for (int i = 0; i < size; i++) {
                row[offset + i] = value == null ? 0 : value.get(i) * n;
            }
            offset += size;
        }
    }

    /** The new value of {@code v} that replica step {@code r} computed, or null when it does not write it. */
    private static Tensor written(StepRunner.Result r, Variable v) {
        for (int i = 0; i < r.stateVariables().size(); i++) {
            if (r.stateVariables().get(i) == v) {
                return r.state()[i];
            }
        }
        return null;
    }

    @Override
    public void close() {
        if (overlapped != null) {
            overlapped.close();
        }
    }

    private static StepBatch slice(StepBatch batch, int from, int to) {
        if (from == 0 && to == batch.size()) {
            return batch;
        }
        Tensor[] x = new Tensor[batch.x().length];
        for (int i = 0; i < x.length; i++) {
            x[i] = batch.x()[i].slice(from, to);
        }
        Tensor[] y = new Tensor[batch.y().length];
        for (int i = 0; i < y.length; i++) {
            y[i] = batch.y()[i].slice(from, to);
        }
        return new StepBatch(x, y, batch.weights() == null ? null : batch.weights().slice(from, to), to - from);
    }

    /**
     * The mean time of the gradient reduction per step since the last call (the ring all-reduce, or the in-memory
     * sum), in milliseconds, and starts counting again.
     */
    double takeReduceMillisPerStep() {
        double ms = reduceSteps == 0 ? 0 : reduceNanos / 1e6 / reduceSteps;
        reduceNanos = 0;
        reduceSteps = 0;
        return ms;
    }

    /**
     * Workers: the number of steps every worker runs in an epoch, the largest of the workers' own counts (a
     * worker with less data sends empty shards at the end). In-process replicas: {@code localSteps}.
     */
    int agreeOnSteps(int localSteps) {
        if (allReduce == null) {
            return localSteps;
        }
        float[] counts = new float[distribution.ring().size()];
        counts[distribution.ring().rank()] = localSteps;
        sumOverWorkers(counts, "agreeing on the steps per epoch");
        int max = 0;
        for (float c : counts) {
            max = Math.max(max, (int) c);
        }
        return max;
    }

    /**
     * Workers: replaces each value of {@code logs} by its average over the workers, weighted by their
     * {@code samples} of the epoch (the logs' keys are the same on every worker). In-process replicas: nothing to do.
     */
    void averageLogs(Map<String, Double> logs, long samples) {
        if (allReduce == null) {
            return;
        }
        float[] v = new float[logs.size() + 1];
        int i = 0;
        for (double value : logs.values()) {
            v[i++] = (float) (value * samples);
        }
        v[i] = samples;
        sumOverWorkers(v, "averaging the epoch's metrics");
        float all = v[logs.size()];
        i = 0;
        for (Map.Entry<String, Double> e : logs.entrySet()) {
            e.setValue(all > 0 ? (double) v[i] / all : e.getValue());
            i++;
        }
    }

    private void sumOverWorkers(float[] v, String what) {
        try {
            allReduce.sum(v, 0, v.length);
        } catch (IOException e) {
            throw new UncheckedIOException("worker " + distribution.ring().rank() + ": " + what + " failed: "
                    + e.getMessage(), e);
        }
    }
}

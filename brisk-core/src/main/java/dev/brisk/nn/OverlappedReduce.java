package dev.brisk.nn;

import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The gradient exchange of a data-parallel step overlapped with its backward pass (PyTorch DDP's buckets): the
 * gradients are grouped into buckets of about {@code bucketFloats} floats in the order the backward pass finishes
 * them (the last layer's first), and once every local replica has finished a bucket's gradients, a communication
 * thread reduces that bucket while the backward pass goes on with the earlier layers. {@link #finish} waits for
 * every bucket; the optimizer's update runs after it.
 *
 * <p>Each bucket is a contiguous range of the flat vector (a run of consecutive variables), and the reducer adds
 * each element in the order the exchange of the whole vector would ({@link
 * dev.brisk.distribute.RingAllReduce#sum(float[], int, int, int, int)}), so the result is bit for bit that of the
 * exchange after the step.
 */
final class OverlappedReduce implements AutoCloseable {
    /** Reduces the elements {@code [from, to)} of the flat vector over the replicas. */
    @FunctionalInterface
    interface Reducer {
        void reduce(int from, int to) throws IOException;
    }

    private final float[][] flat;
    private final int[] offsets;
    private final int[] bucketOf;
    private final int[] bucketFrom;
    private final int[] bucketTo;
    private final int[] bucketVariables;
    private final int rows;
    private final Reducer reducer;
    private final AtomicInteger[] pending;
    private final List<Future<?>> exchanges = new ArrayList<>();
    private ExecutorService thread;
    /** The next bucket to reduce; read and written on the communication thread only (and before it starts). */
    private int next;

    /**
     * @param flat one row per local replica; gradient {@code i} goes to {@code [offsets[i], offsets[i] + size)}
     * @param sizes each trainable variable's element count, in the model's order
     * @param bucketFloats floats per bucket (whole variables: a larger variable is a bucket of its own)
     * @param reducer what reduces a range once every row holds it
     */
    OverlappedReduce(float[][] flat, int[] sizes, int bucketFloats, Reducer reducer) {
        this.flat = flat;
        this.rows = flat.length;
        this.reducer = reducer;
        int p = sizes.length;
        this.offsets = new int[p];
        for (int i = 1; i < p; i++) {
            offsets[i] = offsets[i - 1] + sizes[i - 1];
        }
        // Buckets from the last variable back: the backward pass finishes the last layer's gradients first.
        this.bucketOf = new int[p];
        List<int[]> buckets = new ArrayList<>();
        int i = p - 1;
        while (i >= 0) {
            int to = offsets[i] + sizes[i];
            int count = 0;
            int floats = 0;
            while (i >= 0 && (count == 0 || floats + sizes[i] <= bucketFloats)) {
                bucketOf[i] = buckets.size();
                floats += sizes[i];
                count++;
                i--;
            }
            buckets.add(new int[] {offsets[i + 1], to, count});
        }
        int b = buckets.size();
        this.bucketFrom = new int[b];
        this.bucketTo = new int[b];
        this.bucketVariables = new int[b];
        this.pending = new AtomicInteger[b];
        for (int k = 0; k < b; k++) {
            bucketFrom[k] = buckets.get(k)[0];
            bucketTo[k] = buckets.get(k)[1];
            bucketVariables[k] = buckets.get(k)[2];
            pending[k] = new AtomicInteger();
        }
    }

    /** The number of buckets. */
    int buckets() {
        return bucketFrom.length;
    }

    /** Starts a step: every bucket waits for all its gradients from every row. */
    void beginStep() {
        exchanges.clear();
        next = 0;
        for (int k = 0; k < pending.length; k++) {
            pending[k].set(rows * bucketVariables[k]);
        }
    }

    /** Row {@code row}'s listener: each gradient times {@code n} into the row, then its bucket counts down. */
    StepRunner.GradientListener listener(int row, float n) {
        float[] out = flat[row];
        return (index, gradient) -> {
            float[] data = gradient.data();
            int start = gradient.offset();
            int offset = offsets[index];
            for (int i = 0; i < gradient.size(); i++) {
                out[offset + i] = data[start + i] * n;
            }
            arrived(index);
        };
    }

    /** Row {@code row} has no shard this step: it adds zeros to every bucket. */
    void emptyRow(int row) {
        java.util.Arrays.fill(flat[row], 0, bucketTo.length == 0 ? 0 : bucketTo[0], 0f);
        for (int i = 0; i < offsets.length; i++) {
            arrived(i);
        }
    }

    private void arrived(int variable) {
        if (pending[bucketOf[variable]].decrementAndGet() == 0) {
            synchronized (exchanges) {
                exchanges.add(thread().submit(this::drain));
            }
        }
    }

    /**
     * On the communication thread: reduces the buckets that are ready, in bucket order. Every rank of a ring must
     * exchange the buckets in the same order, whatever order its backward pass (or an empty shard) finished them.
     */
    private Void drain() throws IOException {
        while (next < pending.length && pending[next].get() == 0) {
            reducer.reduce(bucketFrom[next], bucketTo[next]);
            next++;
        }
        return null;
    }

    private synchronized ExecutorService thread() {
        if (thread == null) {
            thread = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "brisk-gradient-exchange");
                t.setDaemon(true);
                return t;
            });
        }
        return thread;
    }

    /** Waits until every bucket of the step is reduced. */
    void finish() throws IOException {
        List<Future<?>> all;
        synchronized (exchanges) {
            all = new ArrayList<>(exchanges);
        }
        for (Future<?> f : all) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted waiting for the gradient exchange", e);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof IOException io) {
                    throw io;
                }
                if (e.getCause() instanceof RuntimeException re) {
                    throw re;
                }
                throw new IllegalStateException(e.getCause());
            }
        }
        if (next != pending.length) {
            throw new IllegalStateException(next + " of " + pending.length + " gradient buckets were reduced");
        }
    }

    @Override
    public synchronized void close() {
        if (thread != null) {
            thread.shutdownNow();
            thread = null;
        }
    }
}

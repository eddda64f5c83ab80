package dev.brisk.data;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link Pipeline#shuffle}: tf.data's buffer shuffle. When the whole pass fits in the buffer the output order is
 * {@link Permutations#shuffled}, the permutation {@link InMemoryDataset} uses, so both give the same batches.
 * Above an {@link IndexedSource} such a pass holds no elements: it permutes the indexes and makes each element as
 * it is given (a full-size shuffle of a dataset kept as bytes would otherwise hold every decoded sample).
 */
final class ShuffleStage<T> extends Pipeline<T> {
    private final Pipeline<T> upstream;
    private final int bufferSize;
    private final long seed;
    private final AtomicLong passes = new AtomicLong();

    ShuffleStage(Pipeline<T> upstream, int bufferSize, long seed) {
        this.upstream = upstream;
        this.bufferSize = bufferSize;
        this.seed = seed;
    }

    @Override
    public long cardinality() {
        return upstream.cardinality();
    }

    @Override
    Cursor<T> open(Autotuner tuner) {
        long passSeed = seed + passes.getAndIncrement();
        if (upstream instanceof IndexedSource<T> source && source.cardinality() <= bufferSize) {
            int n = (int) source.cardinality();
            return source.openPermuted(() -> Permutations.shuffled(n, passSeed));
        }
        return new ShuffleCursor(upstream.open(tuner), passSeed);
    }

    private final class ShuffleCursor implements Cursor<T> {
        private final Cursor<T> in;
        private final long passSeed;
        private final List<T> buffer = new ArrayList<>();
        private boolean filled;
        private boolean inputDone;
        /** The input element read to find out whether the pass fits in the buffer, waiting to enter it. */
        private T pending;
        /** Set when the whole pass fit in the buffer: the output order. */
        private int[] permutation;
        private int emitted;
        private SplittableRandom random;

        ShuffleCursor(Cursor<T> in, long passSeed) {
            this.in = in;
            this.passSeed = passSeed;
        }

        @Override
        public T next() {
            if (!filled) {
                fill();
            }
            if (permutation != null) {
                if (emitted == permutation.length) {
                    return null;
                }
                int at = permutation[emitted++];
                T e = buffer.get(at);
                buffer.set(at, null);
                return e;
            }
            if (buffer.isEmpty()) {
                return null;
            }
            T replacement = null;
            if (pending != null) {
                replacement = pending;
                pending = null;
            } else if (!inputDone) {
                replacement = in.next();
                inputDone = replacement == null;
            }
            int j = random.nextInt(buffer.size());
            T out = buffer.get(j);
            if (replacement != null) {
                buffer.set(j, replacement);
            } else {
                buffer.set(j, buffer.get(buffer.size() - 1));
                buffer.remove(buffer.size() - 1);
            }
            return out;
        }

        /** Fills the buffer; resumable when upstream throws a bad record half way. */
        private void fill() {
            while (buffer.size() < bufferSize) {
                T e = in.next();
                if (e == null) {
                    inputDone = true;
                    break;
                }
                buffer.add(e);
            }
            if (!inputDone) {
                pending = in.next();
                inputDone = pending == null;
            }
            if (inputDone) {
                permutation = Permutations.shuffled(buffer.size(), passSeed);
            } else {
                random = new SplittableRandom(passSeed);
            }
            filled = true;
        }

        @Override
        public void recycle(T element) {
            in.recycle(element); // a delivered element has left the buffer
        }

        @Override
        public void close() {
            buffer.clear();
            in.close();
        }
    }
}

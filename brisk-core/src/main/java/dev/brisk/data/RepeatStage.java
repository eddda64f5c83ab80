package dev.brisk.data;

/** {@link Pipeline#repeat}: passes of the upstream one after another; a pass with no elements ends it. */
final class RepeatStage<T> extends Pipeline<T> {
    private final Pipeline<T> upstream;
    /** Repetitions, or -1 for forever. */
    private final int count;

    RepeatStage(Pipeline<T> upstream, int count) {
        this.upstream = upstream;
        this.count = count;
    }

    @Override
    public long cardinality() {
        long c = upstream.cardinality();
        if (c == 0 || count == 0) {
            return 0;
        }
        if (count < 0) {
            return c == UNKNOWN ? UNKNOWN : INFINITE;
        }
        return c < 0 ? c : c * count;
    }

    @Override
    Cursor<T> open(Autotuner tuner) {
        return new Cursor<>() {
            /** The current repetition's pass; volatile for {@link #recycle}, which may run on another thread. */
            private volatile Cursor<T> in;
            private int done;
            private long seenThisPass;
            private boolean over = count == 0;

            @Override
            public T next() {
                while (!over) {
                    if (in == null) {
                        in = upstream.open(tuner);
                        seenThisPass = 0;
                    }
                    T e = in.next();
                    if (e != null) {
                        seenThisPass++;
                        return e;
                    }
                    in.close();
                    in = null;
                    done++;
                    over = seenThisPass == 0 || count >= 0 && done >= count;
                }
                return null;
            }

            /** To the current repetition: an element of an earlier one is not its own, and it ignores it. */
            @Override
            public void recycle(T element) {
                Cursor<T> current = in;
                if (current != null) {
                    current.recycle(element);
                }
            }

            @Override
            public void close() {
                over = true;
                if (in != null) {
                    in.close();
                    in = null;
                }
            }
        };
    }
}

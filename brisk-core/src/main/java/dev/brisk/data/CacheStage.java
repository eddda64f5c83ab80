package dev.brisk.data;

import java.util.ArrayList;
import java.util.List;

/** {@link Pipeline#cache}: records the first complete pass and replays it. */
final class CacheStage<T> extends Pipeline<T> {
    private final Pipeline<T> upstream;
    private volatile List<T> cached;

    CacheStage(Pipeline<T> upstream) {
        this.upstream = upstream;
    }

    @Override
    public long cardinality() {
        List<T> c = cached;
        return c != null ? c.size() : upstream.cardinality();
    }

    @Override
    Cursor<T> open(Autotuner tuner) {
        List<T> c = cached;
        if (c != null) {
            return new IndexedSource<T>(c.size(), c::get).open(tuner);
        }
        Cursor<T> in = upstream.open(tuner);
        return new Cursor<>() {
            private List<T> recording = new ArrayList<>();

            @Override
            public T next() {
                T e = in.next();
                if (e != null) {
                    if (recording != null) {
                        recording.add(e);
                    }
                } else if (recording != null) {
                    synchronized (CacheStage.this) {
                        if (cached == null) {
                            cached = List.copyOf(recording);
                        }
                    }
                    recording = null;
                }
                return e;
            }

            @Override
            public void close() {
                recording = null; // an incomplete pass is not cached
                in.close();
            }
        };
    }
}

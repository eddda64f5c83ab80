package dev.brisk.data;

import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.lang.ref.WeakReference;
import java.util.Arrays;

/**
 * Storage of one size for the tensors a stage makes in one pass, reused once the consumer gives a tensor back.
 *
 * <p>An array is reused only after {@link #give} with the very tensor object {@link #take} last wrapped it in (its
 * lease): a tensor this pool did not make, one given back twice, or a stale one whose array was handed out again
 * since, is ignored. So the consumer's word that it no longer reads a tensor is the only way an array returns.
 * Leases are held weakly: a tensor the consumer drops without giving back is collected as usual, and the pool pins
 * no memory but its free arrays. At most {@link #CAPACITY} leases are tracked; tensors beyond that (a consumer
 * that keeps many) are made untracked and never reused. When no array is free the pool allocates: it never waits.
 *
 * <p>Thread-safe: the stage takes on its own thread while the consumer gives back on another; the monitor also
 * orders the consumer's last reads of an array before the stage's next writes to it.
 */
final class BufferPool {
    /**
     * Leases tracked at once: more than AUTOTUNE's deepest prefetch buffer (64) and the map windows (twice the
     * workers) of a large machine hold, and cheap to scan next to stacking a batch.
     */
    static final int CAPACITY = 256;

    private final WeakReference<?>[] leases = new WeakReference<?>[CAPACITY];
    private final float[][] free = new float[CAPACITY][];
    private int freeCount;
    /** Floats per array (without tail padding), fixed by the first take; -1 before it. */
    private int length = -1;
    private boolean closed;

    /**
     * A tensor of {@code shape} over a free array (old contents, to be overwritten) or new zeroed storage. Shapes
     * of another size than the first one get new storage that is never reused (a smaller last batch).
     */
    synchronized Tensor take(Shape shape) {
        return take(shape, DType.FLOAT32);
    }

    /** As {@link #take(Shape)}, for a tensor of element type {@code dtype} (the storage is the same). */
    synchronized Tensor take(Shape shape, DType dtype) {
        int size = shape.size();
        if (length < 0) {
            length = size;
        }
        if (size != length || closed) {
            return Tensor.zeros(shape, dtype);
        }
        float[] data;
        if (freeCount > 0) {
            data = free[--freeCount];
            free[freeCount] = null;
        } else {
            data = Tensor.storage(size);
        }
        Tensor t = Tensor.wrap(data, 0, shape, dtype);
        int slot = emptySlot();
        if (slot >= 0) {
            leases[slot] = new WeakReference<>(t);
        }
        return t;
    }

    /** Takes back the array of {@code t} if {@code t} is one of this pool's current leases; ignores it otherwise. */
    synchronized void give(Tensor t) {
        if (t == null) {
            return;
        }
        for (int i = 0; i < CAPACITY; i++) {
            WeakReference<?> lease = leases[i];
            if (lease != null && lease.get() == t) {
                leases[i] = null;
                if (!closed) {
                    free[freeCount++] = t.data(); // cannot overflow: every free array had a lease
                }
                return;
            }
        }
    }

    /** Drops the free arrays; later takes allocate and gives are ignored. */
    synchronized void close() {
        closed = true;
        Arrays.fill(free, null);
        freeCount = 0;
        Arrays.fill(leases, null);
    }

    /** Arrays waiting for reuse (for tests). */
    synchronized int freeCount() {
        return freeCount;
    }

    private int emptySlot() {
        for (int i = 0; i < CAPACITY; i++) {
            WeakReference<?> lease = leases[i];
            if (lease == null || lease.refersTo(null)) {
                return i;
            }
        }
        return -1;
    }
}

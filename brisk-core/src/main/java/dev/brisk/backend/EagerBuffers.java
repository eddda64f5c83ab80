package dev.brisk.backend;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Output storage for eager steps that is recycled from one step to the next, as PyTorch's caching allocator does:
 * a training loop asks for the same sizes every step, so after the first step no op allocates (or zeroes) a new
 * array, and the garbage collector has nothing to do. Every kernel writes all of its output, so a recycled array
 * needs no clearing (the compiled plan relies on the same property).
 *
 * <p>Only the owner of the step may {@link #reclaim()} its arrays, and only once nothing reads the step's values
 * any more. Not thread-safe: one instance per training loop.
 */
public final class EagerBuffers {
    /** Creates an empty recycler: the first step allocates, later ones reuse. */
    public EagerBuffers() {
    }

    private final Map<Integer, ArrayDeque<float[]>> free = new HashMap<>();
    private final List<float[]> lent = new ArrayList<>();

    /**
     * A tensor of {@code shape} over recycled (not cleared) storage, or new zeroed storage.
     *
     * @param shape the shape of the tensor
     * @return a tensor the caller owns until the next {@link #reclaim()}
     */
    public Tensor take(Shape shape) {
        int size = shape.size();
        ArrayDeque<float[]> queue = free.get(size);
        float[] data = queue == null ? null : queue.pollLast();
        if (data == null) {
            data = Tensor.storage(size);
        }
        lent.add(data);
        return Tensor.wrap(data, 0, shape);
    }

    /** Takes back every array handed out since the last call; their tensors must not be used afterwards. */
    public void reclaim() {
        for (float[] data : lent) {
            free.computeIfAbsent(data.length - Tensor.TAIL_PADDING, k -> new ArrayDeque<>()).addLast(data);
        }
        lent.clear();
    }

    /**
     * Arrays currently lent out (for tests).
     *
     * @return how many arrays {@link #take} handed out since the last {@link #reclaim()}
     */
    public int lentCount() {
        return lent.size();
    }
}

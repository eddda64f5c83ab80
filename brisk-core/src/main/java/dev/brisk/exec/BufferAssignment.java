package dev.brisk.exec;

import dev.brisk.ops.Node;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The tensor every live node that runs (is not folded into a fused chain) writes its value to. Variables and
 * constants are their own storage; an INPUT gets a tensor the caller fills before each run; a reshape or a
 * leading-axis slice is a view of its input ({@link Views}); ASSIGN and UPDATE have no value. Every other value takes a buffer from a pool, walking the nodes in
 * plan order, and gives it back once its last reader ({@link Liveness}) has run, so values whose lifetimes do not
 * overlap share storage.
 */
final class BufferAssignment {
    private final Map<Node, Tensor> values;
    private final Map<Node, Tensor> inputs;
    private final long bufferFloats;
    private final int bufferCount;

    private BufferAssignment(Map<Node, Tensor> values, Map<Node, Tensor> inputs, long bufferFloats,
                             int bufferCount) {
        this.values = values;
        this.inputs = inputs;
        this.bufferFloats = bufferFloats;
        this.bufferCount = bufferCount;
    }

    /** Assigns storage to the live nodes of {@code nodes} that run, with buffers reused after {@code liveness}. */
    static BufferAssignment of(List<Node> nodes, boolean[] live, Fusion fusion, Liveness liveness) {
        Map<Node, Tensor> values = new IdentityHashMap<>();
        Map<Node, Tensor> inputs = new HashMap<>();
        BufferPool pool = new BufferPool();
        List<List<Node>> releaseAfter = new ArrayList<>(nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
            releaseAfter.add(new ArrayList<>(0));
        }
        for (Node n : nodes) {
            if (!live[n.id()] || fusion.absorbed(n)) {
                continue;
            }
            Tensor value = liveness.storageRoot(n) != n ? view(n, values.get(n.input(0))) : switch (n.op()) {
                case VARIABLE -> n.variable().value();
                case CONSTANT -> n.value();
                case INPUT -> {
                    Tensor t = Tensor.zeros(n.shape());
                    inputs.put(n, t);
                    yield t;
                }
                case ASSIGN, UPDATE -> null;
                default -> {
                    float[] buf = pool.take(n.shape().size());
                    int last = liveness.lastReader(n);
                    if (last != Liveness.PINNED) {
                        releaseAfter.get(last).add(n);
                    }
                    yield Tensor.wrap(buf, 0, n.shape());
                }
            };
            values.put(n, value);
            for (Node dead : releaseAfter.get(n.id())) {
                pool.release(values.get(dead).data());
            }
        }
        return new BufferAssignment(values, inputs, pool.totalFloats, pool.count);
    }

    /** View {@code n} ({@link Views}) of its input's tensor {@code in}. */
    private static Tensor view(Node n, Tensor in) {
        return Tensor.wrap(in.data(), in.offset() + Views.offsetOf(n), n.shape(), in.dtype());
    }

    /** The tensor {@code n}'s value lives in; null for a node folded into a chain, ASSIGN and UPDATE. */
    Tensor valueOf(Node n) {
        return values.get(n);
    }

    /** The tensors the caller fills before each run, by INPUT node. */
    Map<Node, Tensor> inputs() {
        return inputs;
    }

    /** How many floats the pool's buffers hold together (their tail padding aside). */
    long bufferFloats() {
        return bufferFloats;
    }

    /** How many buffers the pool allocated. */
    int bufferCount() {
        return bufferCount;
    }

    /** Free buffers by capacity; take() returns the smallest free one that fits, else a new one. */
    private static final class BufferPool {
        private final TreeMap<Integer, List<float[]>> free = new TreeMap<>();
        long totalFloats;
        int count;

        float[] take(int size) {
            // Every buffer keeps Tensor.TAIL_PADDING spare floats past the value it holds.
            Map.Entry<Integer, List<float[]>> e = free.ceilingEntry(size + Tensor.TAIL_PADDING);
            // A much larger buffer would waste memory that a later, larger value could use.
            if (e != null && e.getKey() <= 2L * size + 1024 + Tensor.TAIL_PADDING) {
                List<float[]> list = e.getValue();
                float[] b = list.remove(list.size() - 1);
                if (list.isEmpty()) {
                    free.remove(e.getKey());
                }
                return b;
            }
            count++;
            totalFloats += size;
            return Tensor.storage(size);
        }

        void release(float[] buffer) {
            free.computeIfAbsent(buffer.length, k -> new ArrayList<>()).add(buffer);
        }
    }
}

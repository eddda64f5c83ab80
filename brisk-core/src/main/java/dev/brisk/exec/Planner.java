package dev.brisk.exec;

import dev.brisk.backend.Kernels;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Tensor;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compiles a traced graph into a {@link Plan} in passes, each a class of its own:
 * <ol>
 *   <li>{@link LiveNodes}: drops nodes no output or side effect needs;</li>
 *   <li>{@link Fusion}: finds chains of nodes that run as one kernel call;</li>
 *   <li>{@link Liveness}: each value's storage and its last reader;</li>
 *   <li>{@link AuxValues}: the aux tensors (pooling cells, dropout masks, softmax probabilities) kernels keep;</li>
 *   <li>{@link BufferAssignment}: a buffer per intermediate value, reused as soon as its last reader has run;
 *       reshapes are views;</li>
 *   <li>{@link Binding}: every kernel call bound once, to that storage;</li>
 *   <li>{@link Scheduling}: independent calls grouped to run side by side where that pays ({@link Schedule}).</li>
 * </ol>
 */
public final class Planner {
    private Planner() {
    }

    /**
     * Compiles {@code nodes} (in creation order, so inputs precede users) into a plan that computes
     * {@code outputs} and performs every side effect (variable updates) reachable in the graph.
     */
    public static Plan compile(List<Node> nodes, List<Node> outputs, Kernels kernels) {
        return compile(nodes, outputs, kernels, Fusion.enabledByDefault());
    }

    /**
     * As {@link #compile(List, List, Kernels)}; with {@code fuse} false every node runs as a kernel call of its
     * own instead of chains running as one (see {@link Fusion}), which gives the same results in more passes.
     */
    public static Plan compile(List<Node> nodes, List<Node> outputs, Kernels kernels, boolean fuse) {
        boolean[] live = LiveNodes.of(nodes, outputs);
        Fusion fusion = fuse ? Fusion.find(nodes, live, outputs, kernels) : Fusion.none();
        Liveness liveness = Liveness.of(nodes, live, fusion, outputs);
        AuxValues aux = AuxValues.of(nodes, live, fusion);
        BufferAssignment values = BufferAssignment.of(nodes, live, fusion, liveness);
        KernelBinder.Buffers buffers = new Storage(values, aux);
        Binding bound = Binding.of(nodes, live, fusion, liveness, buffers, kernels);
        Schedule schedule = Scheduling.of(bound, buffers);
        Map<Node, Tensor> outs = new IdentityHashMap<>();
        for (Node o : outputs) {
            outs.put(o, values.valueOf(o));
        }
        return new Plan(bound.code(), bound.nodes(), schedule, values.inputs(), outs, values.bufferFloats(),
                values.bufferCount(), aux.keptFloats());
    }

    /** The storage the binding reads and writes: each value's tensor and each kept aux tensor. */
    record Storage(BufferAssignment values, AuxValues aux) implements KernelBinder.Buffers {
        @Override
        public Tensor valueOf(Node node) {
            return values.valueOf(node);
        }

        @Override
        public Tensor auxOf(Node node) {
            return aux.of(node);
        }
    }
}

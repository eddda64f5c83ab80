package dev.brisk.exec;

import dev.brisk.backend.Kernels;
import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
import dev.brisk.ops.ShapeInference;
import dev.brisk.parallel.Parallel;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Compiles a traced graph into a {@link Plan}: drops nodes no output or side effect needs, runs chains of nodes
 * as one kernel call where {@link Fusion} finds them, gives every intermediate value a buffer chosen by liveness
 * (a buffer is reused as soon as its last reader has run), makes reshapes views, binds every kernel call once, and
 * schedules independent calls to run side by side where that pays ({@link Schedule}).
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
        boolean[] live = liveNodes(nodes, outputs);
        Fusion fusion = fuse ? Fusion.find(nodes, live, outputs, kernels) : Fusion.none();
        Map<Node, Node> root = new IdentityHashMap<>();
        int[] lastUse = new int[nodes.size()];
        for (Node n : nodes) {
            if (!live[n.id()]) {
                continue;
            }
            root.put(n, n.op() == OpType.RESHAPE ? root.get(n.input(0)) : n);
            lastUse[n.id()] = n.id();
            int at = fusion.runsAt(n).id();
            for (Node in : n.inputs()) {
                Node r = root.get(in);
                lastUse[r.id()] = Math.max(lastUse[r.id()], at);
            }
        }
        for (Node out : outputs) {
            lastUse[root.get(out).id()] = Integer.MAX_VALUE;
        }

        Set<Node> auxRead = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Node n : nodes) {
            Node source = live[n.id()] ? ShapeInference.auxSource(n) : null;
            if (source != null) {
                auxRead.add(source);
            }
        }
        Map<Node, Tensor> values = new IdentityHashMap<>();
        Map<Node, Tensor> aux = new IdentityHashMap<>();
        Map<Node, Tensor> inputs = new HashMap<>();
        BufferPool pool = new BufferPool();
        long keptFloats = 0;
        List<List<Node>> releaseAt = new ArrayList<>(nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
            releaseAt.add(new ArrayList<>(0));
        }
        List<Instruction> code = new ArrayList<>();
        List<Node> codeNodes = new ArrayList<>();
        List<Tensor> codeOutputs = new ArrayList<>();
        KernelBinder.Buffers buffers = new KernelBinder.Buffers() {
            @Override
            public Tensor valueOf(Node node) {
                return values.get(node);
            }

            @Override
            public Tensor auxOf(Node node) {
                return aux.get(node);
            }
        };

        for (Node n : nodes) {
            if (!live[n.id()] || fusion.absorbed(n)) {
                continue;
            }
            Tensor out = switch (n.op()) {
                case VARIABLE -> n.variable().value();
                case CONSTANT -> n.value();
                case INPUT -> {
                    Tensor t = Tensor.zeros(n.shape());
                    inputs.put(n, t);
                    yield t;
                }
                case RESHAPE -> values.get(n.input(0)).reshape(n.shape());
                case ASSIGN, UPDATE -> null;
                default -> {
                    float[] buf = pool.take(n.shape().size());
                    if (lastUse[n.id()] != Integer.MAX_VALUE) {
                        releaseAt.get(lastUse[n.id()]).add(n);
                    }
                    yield Tensor.wrap(buf, 0, n.shape());
                }
            };
            Shape auxShape = ShapeInference.auxShape(n);
            if (auxShape != null && (auxRead.contains(n) || !ShapeInference.auxOnlyForGradient(n))) {
                aux.put(n, Tensor.zeros(auxShape));
                keptFloats += auxShape.size();
            }
            values.put(n, out);
            FusedChain chain = fusion.endedBy(n);
            FusedChain routed = fusion.routedFor(n);
            Instruction instruction = chain != null ? FusedBinder.bind(chain, out, buffers, kernels)
                    : routed != null ? FusedBinder.bindRoutedReader(n, routed, out, buffers, kernels)
                    : KernelBinder.bind(n, out, buffers, kernels);
            if (instruction != null) {
                code.add(instruction);
                codeNodes.add(chain != null ? chain.describe() : routed != null ? routed.describeReadBy(n) : n);
                codeOutputs.add(out);
            }
            for (Node dead : releaseAt.get(n.id())) {
                pool.release(values.get(dead).data());
            }
        }
        Map<Node, Tensor> outs = new IdentityHashMap<>();
        for (Node o : outputs) {
            outs.put(o, values.get(o));
        }
        Schedule schedule = Schedule.build(code, codeNodes,
                () -> DependencyGraph.of(codeNodes, codeOutputs, buffers), Parallel.threads());
        return new Plan(code, codeNodes, schedule, inputs, outs, pool.totalFloats, pool.count, keptFloats);
    }

    private static boolean[] liveNodes(List<Node> nodes, List<Node> outputs) {
        boolean[] live = new boolean[nodes.size()];
        for (Node o : outputs) {
            live[o.id()] = true;
        }
        for (Node n : nodes) {
            if (n.isSideEffect()) {
                live[n.id()] = true;
            }
        }
        for (int i = nodes.size() - 1; i >= 0; i--) {
            if (live[i]) {
                for (Node in : nodes.get(i).inputs()) {
                    live[in.id()] = true;
                }
            }
        }
        return live;
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

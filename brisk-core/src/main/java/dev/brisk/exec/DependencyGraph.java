package dev.brisk.exec;

import dev.brisk.ops.FusedAttrs;
import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
import dev.brisk.ops.ShapeInference;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;

/**
 * Which instructions of a plan may run in either order or at the same time: each instruction's reads and writes,
 * as the arrays behind its tensors. Two instructions conflict when one writes an array the other reads or
 * writes. Arrays are compared by identity, so a buffer the planner reuses for a later value (liveness) makes the
 * instructions of the two values conflict, and so do two views of one array, whatever their offsets.
 */
final class DependencyGraph {
    private final float[][][] reads;
    private final float[][][] writes;

    private DependencyGraph(float[][][] reads, float[][][] writes) {
        this.reads = reads;
        this.writes = writes;
    }

    /** The arrays a batch normalization gradient reads through relu's gradient {@code gate} routed into it. */
    private static void routedGateReads(Node reader, Node gate, KernelBinder.Buffers buffers, List<float[]> reads) {
        if (!ChainLinks.gatesBatchNormGradient(reader, gate)) {
            return;
        }
        List<Node> read = new ArrayList<>(gate.inputs());
        Node norm = ChainLinks.normalizationUnderRelu(reader, gate);
        if (norm != null) {
            read.add(norm.input(2));
            read.add(norm.input(3));
        }
        for (Node n : read) {
            Tensor t = buffers.valueOf(n);
            if (t != null) {
                reads.add(t.data());
            }
        }
    }

    /** The accesses of the instructions computing {@code nodes}, with their tensors found in {@code buffers}. */
    static DependencyGraph of(List<Node> nodes, List<Tensor> outputs, KernelBinder.Buffers buffers) {
        int n = nodes.size();
        float[][][] reads = new float[n][][];
        float[][][] writes = new float[n][][];
        for (int i = 0; i < n; i++) {
            Node node = nodes.get(i);
            List<float[]> r = new ArrayList<>();
            List<float[]> w = new ArrayList<>();
            int last = node.inputs().size() - 1;
            for (int j = 0; j <= last; j++) {
                Tensor value = buffers.valueOf(node.input(j));
                if (value == null) {
                    // Folded into a chain: a pool's input gated by its cells is read by none of its calls; relu's
                    // gradient routed into a batch normalization gradient is read as relu's output and dy, or as dy
                    // and the normalization's gamma and beta.
                    routedGateReads(node, node.input(j), buffers, r);
                    continue;
                }
                float[] data = value.data();
                // UPDATE (parameter, gradient, optimizer slots..., hyper-parameters) writes the parameter and its
                // slots in place; ASSIGN (target, value) writes its target.
                boolean written = switch (node.op()) {
                    case UPDATE -> j == 0 || (j >= 2 && j < last);
                    case ASSIGN -> j == 0;
                    default -> false;
                };
                (written ? w : r).add(data);
            }
            if (node.op() != OpType.UPDATE && node.op() != OpType.ASSIGN) {
                w.add(outputs.get(i).data()); // a fused chain's node is made for the profile and has no buffer
            }
            // A fused chain's node stands for its parts: a chain ending in max pooling writes the pool's cells, and one
            // that keeps an inner value (a pre-activation) writes its buffer.
            for (Node part : node.attrs() instanceof FusedAttrs fused ? fused.nodes() : List.of(node)) {
                Tensor inner = part == node || !(node.attrs() instanceof FusedAttrs) ? null : buffers.valueOf(part);
                if (inner != null && inner.data() != outputs.get(i).data()) {
                    w.add(inner.data());
                }
                Tensor aux = ShapeInference.auxShape(part) == null ? null : buffers.auxOf(part);
                if (aux != null) { // a MAX_POOL whose cells no gradient reads keeps none
                    w.add(aux.data());
                }
                Node auxSource = ShapeInference.auxSource(part);
                if (auxSource != null) {
                    r.add(buffers.auxOf(auxSource).data());
                }
            }
            reads[i] = r.toArray(new float[0][]);
            writes[i] = w.toArray(new float[0][]);
        }
        return new DependencyGraph(reads, writes);
    }

    int size() {
        return reads.length;
    }

    /** True when instructions {@code i} and {@code j} touch no array that either of them writes. */
    boolean independent(int i, int j) {
        return !shares(writes[i], reads[j]) && !shares(writes[i], writes[j]) && !shares(reads[i], writes[j]);
    }

    private static boolean shares(float[][] a, float[][] b) {
        for (float[] x : a) {
            for (float[] y : b) {
                if (x == y) {
                    return true;
                }
            }
        }
        return false;
    }
}

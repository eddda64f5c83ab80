package dev.brisk.exec;

import dev.brisk.ops.Node;
import dev.brisk.ops.ShapeInference;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The auxiliary tensors some kernels write beside their output (max pooling's cells, dropout's mask, softmax's
 * probabilities; see {@link ShapeInference#auxShape}). A node keeps one when it runs a kernel call of its own and
 * either a live node reads its aux value (its gradient) or its kernel needs the aux tensor even when no gradient
 * does. Aux tensors are kept for the plan's lifetime, never shared.
 */
final class AuxValues {
    private final Map<Node, Tensor> aux;
    private final long keptFloats;

    private AuxValues(Map<Node, Tensor> aux, long keptFloats) {
        this.aux = aux;
        this.keptFloats = keptFloats;
    }

    /** The aux tensors of the live nodes of {@code nodes} that run a kernel call of their own. */
    static AuxValues of(List<Node> nodes, boolean[] live, Fusion fusion) {
        Set<Node> read = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Node n : nodes) {
            Node source = live[n.id()] ? ShapeInference.auxSource(n) : null;
            if (source != null) {
                read.add(source);
            }
        }
        Map<Node, Tensor> aux = new IdentityHashMap<>();
        long kept = 0;
        for (Node n : nodes) {
            if (!live[n.id()] || fusion.absorbed(n)) {
                continue;
            }
            Shape shape = ShapeInference.auxShape(n);
            if (shape != null && (read.contains(n) || !ShapeInference.auxOnlyForGradient(n))) {
                aux.put(n, Tensor.zeros(shape));
                kept += shape.size();
            }
        }
        return new AuxValues(aux, kept);
    }

    /** The aux tensor of {@code n}, or null when it keeps none. */
    Tensor of(Node n) {
        return aux.get(n);
    }

    /** How many floats the aux tensors hold together. */
    long keptFloats() {
        return keptFloats;
    }
}

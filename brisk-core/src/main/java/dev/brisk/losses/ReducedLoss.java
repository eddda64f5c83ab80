package dev.brisk.losses;

import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;

/**
 * A loss of the user's own with another {@link Reduction} ({@link Loss#withReduction}): the same per-step values,
 * reduced as the reduction says, with or without weights and a mask.
 */
record ReducedLoss(Loss inner, Reduction reduction) implements Loss {
    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public Node compute(Graph g, Node yTrue, Node yPred) {
        return Reductions.reduce(g, values(g, yTrue, yPred), null, null, reduction, name());
    }

    @Override
    public Node perStep(Graph g, Node yTrue, Node yPred) {
        return inner.perStep(g, yTrue, yPred);
    }

    @Override
    public Loss withReduction(Reduction r) {
        return r == reduction ? this : inner.withReduction(r);
    }

    @Override
    public boolean sparseTargets() {
        return inner.sparseTargets();
    }

    @Override
    public boolean fromLogits() {
        return inner.fromLogits();
    }

    private Node values(Graph g, Node yTrue, Node yPred) {
        Node values = inner.perStep(g, yTrue, yPred);
        if (values == null) {
            throw new IllegalArgumentException("loss " + name() + " gives no per-step values (Loss.perStep), so it"
                    + " cannot be reduced by '" + reduction.kerasName() + "'");
        }
        return values;
    }
}

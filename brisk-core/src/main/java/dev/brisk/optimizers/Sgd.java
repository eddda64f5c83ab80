package dev.brisk.optimizers;

import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;
import dev.brisk.ops.UpdateAttrs;
import dev.brisk.ops.Variable;
import java.util.List;

/** Stochastic gradient descent with optional (Nesterov) momentum, as in Keras. */
public final class Sgd extends Optimizer {
    private final float momentum;
    private final boolean nesterov;

    public Sgd(float learningRate, float momentum, boolean nesterov) {
        super(learningRate);
        this.momentum = momentum;
        this.nesterov = nesterov;
    }

    public Sgd(LearningRateSchedule schedule, float momentum, boolean nesterov) {
        super(schedule);
        this.momentum = momentum;
        this.nesterov = nesterov;
    }

    @Override
    public String name() {
        return "sgd";
    }

    @Override
    public int hyperParameterCount() {
        return 1;
    }

    @Override
    public float[] hyperParameters() {
        return new float[] {learningRate()};
    }

    @Override
    protected List<Variable> createSlots(Variable v) {
        return momentum > 0 ? List.of(zerosLike(v, "momentum")) : List.of();
    }

    @Override
    protected void update(Graph g, Variable v, Node grad, List<Variable> slots, Node hyper) {
        g.update(new UpdateAttrs(UpdateAttrs.Rule.SGD, momentum, 0f, nesterov), v, grad, slots, hyper);
    }
}

package dev.brisk.optimizers;

import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;
import dev.brisk.ops.SgdUpdate;
import dev.brisk.ops.Variable;
import java.util.List;

/** Stochastic gradient descent with optional (Nesterov) momentum, as in Keras. */
public final class Sgd extends Optimizer {
    private final float momentum;
    private final boolean nesterov;

    /**
     * SGD with a constant learning rate; Keras' defaults are 0.01, no momentum, not Nesterov.
     *
     * @param learningRate the learning rate
     * @param momentum the momentum, 0 for plain SGD
     * @param nesterov true for Nesterov momentum
     */
    public Sgd(float learningRate, float momentum, boolean nesterov) {
        super(learningRate);
        this.momentum = momentum;
        this.nesterov = nesterov;
    }

    /**
     * SGD whose learning rate follows {@code schedule}.
     *
     * @param schedule the learning-rate schedule
     * @param momentum the momentum, 0 for plain SGD
     * @param nesterov true for Nesterov momentum
     */
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
        return SgdUpdate.HYPER_LENGTH;
    }

    @Override
    public float[] hyperParameters() {
        float[] hyper = new float[SgdUpdate.HYPER_LENGTH];
        hyper[SgdUpdate.LR] = learningRate();
        return hyper;
    }

    @Override
    protected List<Variable> createSlots(Variable v) {
        return momentum > 0 ? List.of(zerosLike(v, "momentum")) : List.of();
    }

    @Override
    protected void update(Graph g, Variable v, Node grad, List<Variable> slots, Node hyper) {
        g.update(new SgdUpdate(momentum, nesterov), v, grad, slots, hyper);
    }

    /** Keras' SGD settings: {@code momentum} and {@code nesterov}. */
    @Override
    public java.util.Map<String, Object> ownConfig() {
        java.util.Map<String, Object> c = new java.util.LinkedHashMap<>();
        c.put("momentum", momentum);
        c.put("nesterov", nesterov);
        return c;
    }
}

package dev.brisk.optimizers;

import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;
import dev.brisk.ops.SgdUpdate;
import dev.brisk.ops.Variable;
import java.util.List;

/**
 * Stochastic gradient descent with optional (Nesterov) momentum and Keras 3's decoupled {@code weight_decay}
 * ({@code p -= lr * weight_decay * p} before each step, as Keras' base optimizer does for every optimizer).
 */
public final class Sgd extends Optimizer {
    private final float momentum;
    private final boolean nesterov;
    private final float weightDecay;

    /**
     * SGD with a constant learning rate; Keras' defaults are 0.01, no momentum, not Nesterov.
     *
     * @param learningRate the learning rate
     * @param momentum the momentum, 0 for plain SGD
     * @param nesterov true for Nesterov momentum
     */
    public Sgd(float learningRate, float momentum, boolean nesterov) {
        this(learningRate, null, momentum, nesterov, 0f);
    }

    /**
     * SGD with a constant learning rate and a decoupled weight decay (Keras' {@code weight_decay}).
     *
     * @param learningRate the learning rate
     * @param momentum the momentum, 0 for plain SGD
     * @param nesterov true for Nesterov momentum
     * @param weightDecay the decoupled weight decay, 0 for none
     */
    public Sgd(float learningRate, float momentum, boolean nesterov, float weightDecay) {
        this(learningRate, null, momentum, nesterov, weightDecay);
    }

    /**
     * SGD whose learning rate follows {@code schedule}.
     *
     * @param schedule the learning-rate schedule
     * @param momentum the momentum, 0 for plain SGD
     * @param nesterov true for Nesterov momentum
     */
    public Sgd(LearningRateSchedule schedule, float momentum, boolean nesterov) {
        this(0f, schedule, momentum, nesterov, 0f);
    }

    /**
     * SGD whose learning rate follows {@code schedule}, with a decoupled weight decay.
     *
     * @param schedule the learning-rate schedule
     * @param momentum the momentum, 0 for plain SGD
     * @param nesterov true for Nesterov momentum
     * @param weightDecay the decoupled weight decay, 0 for none
     */
    public Sgd(LearningRateSchedule schedule, float momentum, boolean nesterov, float weightDecay) {
        this(0f, schedule, momentum, nesterov, weightDecay);
    }

    /** The constructors' shared body: a constant {@code learningRate} when {@code schedule} is null. */
    private Sgd(float learningRate, LearningRateSchedule schedule, float momentum, boolean nesterov,
                float weightDecay) {
        super(learningRate, schedule);
        this.momentum = momentum;
        this.nesterov = nesterov;
        this.weightDecay = checkWeightDecay("sgd", weightDecay);
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
        float lr = learningRate();
        float[] hyper = new float[SgdUpdate.HYPER_LENGTH];
        hyper[SgdUpdate.LR] = lr;
        hyper[SgdUpdate.DECAY] = (float) ((double) lr * weightDecay);
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

    /** Keras' SGD settings: {@code momentum}, {@code nesterov} and the weight decay. */
    @Override
    public java.util.Map<String, Object> ownConfig() {
        return config(weightDecay, "momentum", momentum, "nesterov", nesterov);
    }
}

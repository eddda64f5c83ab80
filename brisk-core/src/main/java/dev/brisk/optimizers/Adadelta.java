package dev.brisk.optimizers;

import dev.brisk.graph.Graph;
import dev.brisk.ops.AdadeltaUpdate;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import java.util.List;

/**
 * Adadelta as in Keras (and PyTorch): running means of the squared gradients and of the squared updates set each
 * weight's step size; the learning rate scales the result.
 */
public final class Adadelta extends Optimizer {
    private final float rho;
    private final float epsilon;
    private final float weightDecay;

    /**
     * Adadelta with a constant learning rate; Keras' defaults are 0.001, 0.95 and 1e-7 (PyTorch's rate is 1.0).
     *
     * @param learningRate the learning rate
     * @param rho the decay of both running means
     * @param epsilon added inside both roots
     * @param weightDecay the decoupled weight decay, 0 for none
     */
    public Adadelta(float learningRate, float rho, float epsilon, float weightDecay) {
        this(learningRate, null, rho, epsilon, weightDecay);
    }

    /** The constructors' shared body: a constant {@code learningRate} when {@code schedule} is null. */
    private Adadelta(float learningRate, LearningRateSchedule schedule, float rho, float epsilon, float weightDecay) {
        super(learningRate, schedule);
        this.rho = rho;
        this.epsilon = epsilon;
        this.weightDecay = checkWeightDecay("adadelta", weightDecay);
    }

    /**
     * Adadelta whose learning rate follows {@code schedule}.
     *
     * @param schedule the learning-rate schedule
     * @param rho the decay of both running means
     * @param epsilon added inside both roots
     * @param weightDecay the decoupled weight decay, 0 for none
     */
    public Adadelta(LearningRateSchedule schedule, float rho, float epsilon, float weightDecay) {
        this(0f, schedule, rho, epsilon, weightDecay);
    }

    @Override
    public String name() {
        return "adadelta";
    }

    @Override
    public int hyperParameterCount() {
        return AdadeltaUpdate.HYPER_LENGTH;
    }

    @Override
    public float[] hyperParameters() {
        float lr = learningRate();
        float[] hyper = new float[AdadeltaUpdate.HYPER_LENGTH];
        hyper[AdadeltaUpdate.LR] = lr;
        hyper[AdadeltaUpdate.EPS] = epsilon;
        hyper[AdadeltaUpdate.DECAY] = (float) ((double) lr * weightDecay);
        return hyper;
    }

    @Override
    protected List<Variable> createSlots(Variable v) {
        return List.of(zerosLike(v, "accumulated_grad"), zerosLike(v, "accumulated_delta_var"));
    }

    @Override
    protected void update(Graph g, Variable v, Node grad, List<Variable> slots, Node hyper) {
        g.update(new AdadeltaUpdate(rho), v, grad, slots, hyper);
    }

    /** Keras' Adadelta settings: {@code rho}, {@code epsilon} and the weight decay. */
    @Override
    public java.util.Map<String, Object> ownConfig() {
        return config(weightDecay, "rho", rho, "epsilon", epsilon);
    }
}

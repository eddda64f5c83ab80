package dev.brisk.optimizers;

import dev.brisk.graph.Graph;
import dev.brisk.ops.AdamaxUpdate;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import java.util.List;

/**
 * Adamax as in Keras: Adam with the infinity norm {@code u = max(beta2 u, |g|)} in place of the second moment,
 * {@code p -= lr m / ((1 - beta1^t)(u + epsilon))}. (PyTorch adds its epsilon to {@code |g|} inside the maximum.)
 */
public final class Adamax extends Optimizer {
    private final float beta1;
    private final float beta2;
    private final float epsilon;
    private final float weightDecay;

    /**
     * Adamax with a constant learning rate; Keras' defaults are 0.001, 0.9, 0.999 and 1e-7.
     *
     * @param learningRate the learning rate
     * @param beta1 the decay of the first moment
     * @param beta2 the decay of the infinity norm
     * @param epsilon added to the norm, against division by zero
     * @param weightDecay the decoupled weight decay, 0 for none
     */
    public Adamax(float learningRate, float beta1, float beta2, float epsilon, float weightDecay) {
        this(learningRate, null, beta1, beta2, epsilon, weightDecay);
    }

    /** The constructors' shared body: a constant {@code learningRate} when {@code schedule} is null. */
    private Adamax(float learningRate, LearningRateSchedule schedule, float beta1, float beta2, float epsilon,
                   float weightDecay) {
        super(learningRate, schedule);
        this.beta1 = beta1;
        this.beta2 = beta2;
        this.epsilon = epsilon;
        this.weightDecay = checkWeightDecay("adamax", weightDecay);
    }

    /**
     * Adamax whose learning rate follows {@code schedule}.
     *
     * @param schedule the learning-rate schedule
     * @param beta1 the decay of the first moment
     * @param beta2 the decay of the infinity norm
     * @param epsilon added to the norm, against division by zero
     * @param weightDecay the decoupled weight decay, 0 for none
     */
    public Adamax(LearningRateSchedule schedule, float beta1, float beta2, float epsilon, float weightDecay) {
        this(0f, schedule, beta1, beta2, epsilon, weightDecay);
    }

    @Override
    public String name() {
        return "adamax";
    }

    @Override
    public int hyperParameterCount() {
        return AdamaxUpdate.HYPER_LENGTH;
    }

    @Override
    public float[] hyperParameters() {
        double t = iterations() + 1;
        double lr = learningRate();
        float[] hyper = new float[AdamaxUpdate.HYPER_LENGTH];
        hyper[AdamaxUpdate.LR_T] = (float) (lr / (1 - Math.pow(beta1, t)));
        hyper[AdamaxUpdate.EPS] = epsilon;
        hyper[AdamaxUpdate.DECAY] = (float) (lr * weightDecay);
        return hyper;
    }

    @Override
    protected List<Variable> createSlots(Variable v) {
        return List.of(zerosLike(v, "momentum"), zerosLike(v, "norm"));
    }

    @Override
    protected void update(Graph g, Variable v, Node grad, List<Variable> slots, Node hyper) {
        g.update(new AdamaxUpdate(beta1, beta2), v, grad, slots, hyper);
    }

    /** Keras' Adamax settings: {@code beta_1}, {@code beta_2}, {@code epsilon} and the weight decay. */
    @Override
    public java.util.Map<String, Object> ownConfig() {
        return config(weightDecay, "beta_1", beta1, "beta_2", beta2, "epsilon", epsilon);
    }
}

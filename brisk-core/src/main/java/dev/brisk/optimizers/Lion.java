package dev.brisk.optimizers;

import dev.brisk.graph.Graph;
import dev.brisk.ops.LionUpdate;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import java.util.List;

/**
 * Lion as in Keras: {@code p -= lr sign(beta1 m + (1 - beta1) g)}, then {@code m = beta2 m + (1 - beta2) g}. Every
 * step moves each weight by exactly the learning rate (or not at all), so Lion wants a rate 3 to 10 times smaller
 * than Adam's.
 */
public final class Lion extends Optimizer {
    private final float beta1;
    private final float beta2;
    private final float weightDecay;

    /**
     * Lion with a constant learning rate; Keras' defaults are 0.001, 0.9 and 0.99.
     *
     * @param learningRate the learning rate
     * @param beta1 the momentum's weight in the update's sign, in (0, 1]
     * @param beta2 the momentum's decay
     * @param weightDecay the decoupled weight decay, 0 for none
     */
    public Lion(float learningRate, float beta1, float beta2, float weightDecay) {
        this(learningRate, null, beta1, beta2, weightDecay);
    }

    /** The constructors' shared body: a constant {@code learningRate} when {@code schedule} is null. */
    private Lion(float learningRate, LearningRateSchedule schedule, float beta1, float beta2, float weightDecay) {
        super(learningRate, schedule);
        this.beta1 = checkBeta1(beta1);
        this.beta2 = beta2;
        this.weightDecay = checkWeightDecay("lion", weightDecay);
    }

    /**
     * Lion whose learning rate follows {@code schedule}.
     *
     * @param schedule the learning-rate schedule
     * @param beta1 the momentum's weight in the update's sign, in (0, 1]
     * @param beta2 the momentum's decay
     * @param weightDecay the decoupled weight decay, 0 for none
     */
    public Lion(LearningRateSchedule schedule, float beta1, float beta2, float weightDecay) {
        this(0f, schedule, beta1, beta2, weightDecay);
    }

    /** Keras refuses beta_1 outside (0, 1]: at 0 Lion degenerates to sign SGD, ignoring the momentum it keeps. */
    private static float checkBeta1(float beta1) {
        if (!(beta1 > 0 && beta1 <= 1)) {
            throw new IllegalArgumentException("lion: beta_1 must be in (0, 1], got " + beta1);
        }
        return beta1;
    }

    @Override
    public String name() {
        return "lion";
    }

    @Override
    public int hyperParameterCount() {
        return LionUpdate.HYPER_LENGTH;
    }

    @Override
    public float[] hyperParameters() {
        float lr = learningRate();
        float[] hyper = new float[LionUpdate.HYPER_LENGTH];
        hyper[LionUpdate.LR] = lr;
        hyper[LionUpdate.DECAY] = (float) ((double) lr * weightDecay);
        return hyper;
    }

    @Override
    protected List<Variable> createSlots(Variable v) {
        return List.of(zerosLike(v, "momentum"));
    }

    @Override
    protected void update(Graph g, Variable v, Node grad, List<Variable> slots, Node hyper) {
        g.update(new LionUpdate(beta1, beta2), v, grad, slots, hyper);
    }

    /** Keras' Lion settings: {@code beta_1}, {@code beta_2} and the weight decay. */
    @Override
    public java.util.Map<String, Object> ownConfig() {
        return config(weightDecay, "beta_1", beta1, "beta_2", beta2);
    }
}

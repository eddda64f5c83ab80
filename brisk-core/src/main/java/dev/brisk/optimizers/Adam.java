package dev.brisk.optimizers;

import dev.brisk.graph.Graph;
import dev.brisk.ops.AdamUpdate;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import java.util.List;

/** Adam (and AdamW with a decoupled weight decay), in Keras' formulation, as one fused kernel per variable. */
public class Adam extends Optimizer {
    private final float beta1;
    private final float beta2;
    private final float epsilon;
    private final float weightDecay;

    public Adam(float learningRate, float beta1, float beta2, float epsilon, float weightDecay) {
        super(learningRate);
        this.beta1 = beta1;
        this.beta2 = beta2;
        this.epsilon = epsilon;
        this.weightDecay = weightDecay;
    }

    public Adam(LearningRateSchedule schedule, float beta1, float beta2, float epsilon, float weightDecay) {
        super(schedule);
        this.beta1 = beta1;
        this.beta2 = beta2;
        this.epsilon = epsilon;
        this.weightDecay = weightDecay;
    }

    @Override
    public String name() {
        return weightDecay > 0 ? "adamw" : "adam";
    }

    @Override
    public int hyperParameterCount() {
        return AdamUpdate.HYPER_LENGTH;
    }

    @Override
    public float[] hyperParameters() {
        double t = iterations() + 1;
        double lr = learningRate();
        double lrT = lr * Math.sqrt(1 - Math.pow(beta2, t)) / (1 - Math.pow(beta1, t));
        float[] hyper = new float[AdamUpdate.HYPER_LENGTH];
        hyper[AdamUpdate.LR_T] = (float) lrT;
        hyper[AdamUpdate.EPS_HAT] = epsilon;
        hyper[AdamUpdate.DECOUPLED_DECAY] = (float) (lr * weightDecay);
        return hyper;
    }

    @Override
    protected List<Variable> createSlots(Variable v) {
        return List.of(zerosLike(v, "m"), zerosLike(v, "v"));
    }

    @Override
    protected void update(Graph g, Variable v, Node grad, List<Variable> slots, Node hyper) {
        g.update(new AdamUpdate(beta1, beta2), v, grad, slots, hyper);
    }
}

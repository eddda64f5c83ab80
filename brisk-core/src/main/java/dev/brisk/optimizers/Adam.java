package dev.brisk.optimizers;

import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;
import dev.brisk.ops.UpdateAttrs;
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
        return 3;
    }

    @Override
    public float[] hyperParameters() {
        double t = iterations() + 1;
        double lr = learningRate();
        double lrT = lr * Math.sqrt(1 - Math.pow(beta2, t)) / (1 - Math.pow(beta1, t));
        return new float[] {(float) lrT, epsilon, (float) (lr * weightDecay)};
    }

    @Override
    protected List<Variable> createSlots(Variable v) {
        return List.of(zerosLike(v, "m"), zerosLike(v, "v"));
    }

    @Override
    protected void update(Graph g, Variable v, Node grad, List<Variable> slots, Node hyper) {
        g.update(new UpdateAttrs(UpdateAttrs.Rule.ADAM, beta1, beta2, false), v, grad, slots, hyper);
    }
}

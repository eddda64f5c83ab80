package dev.brisk.optimizers;

import dev.brisk.graph.Graph;
import dev.brisk.ops.AdamUpdate;
import dev.brisk.ops.AmsgradUpdate;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import java.util.List;

/**
 * Adam (and AdamW with a decoupled weight decay, and AMSGrad), in Keras' formulation, as one fused kernel per
 * variable.
 */
public class Adam extends Optimizer {
    private final float beta1;
    private final float beta2;
    private final float epsilon;
    private final float weightDecay;
    private final boolean amsgrad;

    /**
     * Adam with a constant learning rate; Keras' defaults are 0.001, 0.9, 0.999, 1e-7 and 0.
     *
     * @param learningRate the learning rate
     * @param beta1 the decay of the first-moment (mean) estimate
     * @param beta2 the decay of the second-moment (uncentred variance) estimate
     * @param epsilon added to the root of the second moment, against division by zero
     * @param weightDecay the decoupled weight decay (AdamW), 0 for plain Adam
     */
    public Adam(float learningRate, float beta1, float beta2, float epsilon, float weightDecay) {
        this(learningRate, beta1, beta2, epsilon, weightDecay, false);
    }

    /**
     * Adam with a constant learning rate and, when {@code amsgrad}, Keras' AMSGrad variant: the denominator uses the
     * largest second moment seen so far ({@code velocity_hat}).
     *
     * @param learningRate the learning rate
     * @param beta1 the decay of the first-moment (mean) estimate
     * @param beta2 the decay of the second-moment (uncentred variance) estimate
     * @param epsilon added to the root of the second moment, against division by zero
     * @param weightDecay the decoupled weight decay (AdamW), 0 for plain Adam
     * @param amsgrad whether to use AMSGrad
     */
    public Adam(float learningRate, float beta1, float beta2, float epsilon, float weightDecay, boolean amsgrad) {
        this(learningRate, null, beta1, beta2, epsilon, weightDecay, amsgrad);
    }

    /** The constructors' shared body: a constant {@code learningRate} when {@code schedule} is null. */
    private Adam(float learningRate, LearningRateSchedule schedule, float beta1, float beta2, float epsilon,
                 float weightDecay, boolean amsgrad) {
        super(learningRate, schedule);
        this.beta1 = beta1;
        this.beta2 = beta2;
        this.epsilon = epsilon;
        this.weightDecay = checkWeightDecay("adam", weightDecay);
        this.amsgrad = amsgrad;
    }

    /**
     * Adam whose learning rate follows {@code schedule}.
     *
     * @param schedule the learning-rate schedule
     * @param beta1 the decay of the first-moment (mean) estimate
     * @param beta2 the decay of the second-moment (uncentred variance) estimate
     * @param epsilon added to the root of the second moment, against division by zero
     * @param weightDecay the decoupled weight decay (AdamW), 0 for plain Adam
     */
    public Adam(LearningRateSchedule schedule, float beta1, float beta2, float epsilon, float weightDecay) {
        this(schedule, beta1, beta2, epsilon, weightDecay, false);
    }

    /**
     * Adam (AMSGrad when {@code amsgrad}) whose learning rate follows {@code schedule}.
     *
     * @param schedule the learning-rate schedule
     * @param beta1 the decay of the first-moment (mean) estimate
     * @param beta2 the decay of the second-moment (uncentred variance) estimate
     * @param epsilon added to the root of the second moment, against division by zero
     * @param weightDecay the decoupled weight decay (AdamW), 0 for plain Adam
     * @param amsgrad whether to use AMSGrad
     */
    public Adam(LearningRateSchedule schedule, float beta1, float beta2, float epsilon, float weightDecay,
                boolean amsgrad) {
        this(0f, schedule, beta1, beta2, epsilon, weightDecay, amsgrad);
    }

    /**
     * Whether this is Keras' AMSGrad variant.
     *
     * @return Keras' {@code amsgrad}
     */
    public boolean amsgrad() {
        return amsgrad;
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
        return amsgrad ? List.of(zerosLike(v, "m"), zerosLike(v, "v"), zerosLike(v, "velocity_hat"))
                : List.of(zerosLike(v, "m"), zerosLike(v, "v"));
    }

    /** Keras makes m and v in one call, then every {@code velocity_hat} in a second. */
    @Override
    protected int[] slotGroups() {
        return new int[] {0, 0, 1};
    }

    @Override
    protected void update(Graph g, Variable v, Node grad, List<Variable> slots, Node hyper) {
        if (amsgrad) {
            g.update(new AmsgradUpdate(beta1, beta2), v, grad, slots, hyper);
        } else {
            g.update(new AdamUpdate(beta1, beta2), v, grad, slots, hyper);
        }
    }

    /**
     * Keras' Adam / AdamW settings: {@code beta_1}, {@code beta_2}, {@code epsilon}, {@code amsgrad} and, for
     * AdamW, {@code weight_decay}.
     */
    @Override
    public java.util.Map<String, Object> ownConfig() {
        return config(weightDecay, "beta_1", beta1, "beta_2", beta2, "epsilon", epsilon, "amsgrad", amsgrad);
    }
}

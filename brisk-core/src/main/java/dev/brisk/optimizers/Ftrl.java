package dev.brisk.optimizers;

import dev.brisk.graph.Graph;
import dev.brisk.ops.FtrlUpdate;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import java.util.List;

/**
 * FTRL-proximal as in Keras 3's {@code Ftrl}: with {@code a' = a + g^2},
 * {@code linear += g + 2 shrinkage p - (a'^(-power) - a^(-power)) / lr * p},
 * {@code p = (clip(linear, -l1, l1) - linear) / (a'^(-power) / lr + 2 (l2 + beta / (2 lr)))}. Weights whose linear
 * term stays within the L1 strength are exactly 0, the sparsity FTRL is used for. PyTorch has no FTRL.
 */
public final class Ftrl extends Optimizer {
    private final float learningRatePower;
    private final float initialAccumulatorValue;
    private final float l1;
    private final float l2;
    private final float l2Shrinkage;
    private final float beta;
    private final float weightDecay;

    /**
     * FTRL with a constant learning rate; Keras' defaults are 0.001, -0.5, 0.1, 0, 0, 0, 0 and no weight decay.
     *
     * @param learningRate the learning rate
     * @param learningRatePower Keras' {@code learning_rate_power}, at most 0 (0: a fixed rate)
     * @param initialAccumulatorValue the accumulator's starting value, at least 0
     * @param l1 Keras' {@code l1_regularization_strength}, at least 0
     * @param l2 Keras' {@code l2_regularization_strength}, at least 0
     * @param l2Shrinkage Keras' {@code l2_shrinkage_regularization_strength}, at least 0
     * @param beta Keras' {@code beta}, added to the accumulator's root in the L2 term
     * @param weightDecay the decoupled weight decay, 0 for none
     */
    public Ftrl(float learningRate, float learningRatePower, float initialAccumulatorValue, float l1, float l2,
                float l2Shrinkage, float beta, float weightDecay) {
        this(learningRate, null, learningRatePower, initialAccumulatorValue, l1, l2, l2Shrinkage, beta, weightDecay);
    }

    /**
     * FTRL whose learning rate follows {@code schedule}.
     *
     * @param schedule the learning-rate schedule
     * @param learningRatePower Keras' {@code learning_rate_power}, at most 0
     * @param initialAccumulatorValue the accumulator's starting value, at least 0
     * @param l1 Keras' {@code l1_regularization_strength}, at least 0
     * @param l2 Keras' {@code l2_regularization_strength}, at least 0
     * @param l2Shrinkage Keras' {@code l2_shrinkage_regularization_strength}, at least 0
     * @param beta Keras' {@code beta}
     * @param weightDecay the decoupled weight decay, 0 for none
     */
    public Ftrl(LearningRateSchedule schedule, float learningRatePower, float initialAccumulatorValue, float l1,
                float l2, float l2Shrinkage, float beta, float weightDecay) {
        this(0f, schedule, learningRatePower, initialAccumulatorValue, l1, l2, l2Shrinkage, beta, weightDecay);
    }

    /** The constructors' shared body, with Keras' checks: a constant {@code learningRate} when no schedule. */
    private Ftrl(float learningRate, LearningRateSchedule schedule, float learningRatePower,
                 float initialAccumulatorValue, float l1, float l2, float l2Shrinkage, float beta, float weightDecay) {
        super(learningRate, schedule);
        if (!(learningRatePower <= 0)) {
            throw new IllegalArgumentException("ftrl: learning_rate_power must be 0 or negative, got "
                    + learningRatePower);
        }
        this.learningRatePower = learningRatePower;
        this.initialAccumulatorValue = atLeastZero("initial_accumulator_value", initialAccumulatorValue);
        this.l1 = atLeastZero("l1_regularization_strength", l1);
        this.l2 = atLeastZero("l2_regularization_strength", l2);
        this.l2Shrinkage = atLeastZero("l2_shrinkage_regularization_strength", l2Shrinkage);
        this.beta = beta;
        this.weightDecay = checkWeightDecay("ftrl", weightDecay);
    }

    private static float atLeastZero(String option, float value) {
        if (!(value >= 0) || Float.isInfinite(value)) {
            throw new IllegalArgumentException("ftrl: " + option + " must be a finite number >= 0, got " + value);
        }
        return value;
    }

    @Override
    public String name() {
        return "ftrl";
    }

    @Override
    public int hyperParameterCount() {
        return FtrlUpdate.HYPER_LENGTH;
    }

    /** The L2 term depends on the rate ({@code beta / (2 lr)}), so the host computes it per step, in float as Keras. */
    @Override
    public float[] hyperParameters() {
        float lr = learningRate();
        float[] hyper = new float[FtrlUpdate.HYPER_LENGTH];
        hyper[FtrlUpdate.LR] = lr;
        hyper[FtrlUpdate.TWO_L2] = 2 * (l2 + beta / (2 * lr));
        hyper[FtrlUpdate.DECAY] = (float) ((double) lr * weightDecay);
        return hyper;
    }

    @Override
    protected List<Variable> createSlots(Variable v) {
        return List.of(filledLike(v, "accumulator", initialAccumulatorValue), zerosLike(v, "linear"));
    }

    @Override
    protected void update(Graph g, Variable v, Node grad, List<Variable> slots, Node hyper) {
        g.update(new FtrlUpdate(learningRatePower, l1, 2 * l2Shrinkage), v, grad, slots, hyper);
    }

    /** Keras' Ftrl settings, by its names, and the weight decay. */
    @Override
    public java.util.Map<String, Object> ownConfig() {
        return config(weightDecay, "learning_rate_power", learningRatePower, "initial_accumulator_value",
                initialAccumulatorValue, "l1_regularization_strength", l1, "l2_regularization_strength", l2,
                "l2_shrinkage_regularization_strength", l2Shrinkage, "beta", beta);
    }
}

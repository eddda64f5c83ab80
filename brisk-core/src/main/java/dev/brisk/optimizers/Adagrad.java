package dev.brisk.optimizers;

import dev.brisk.graph.Graph;
import dev.brisk.ops.AdagradUpdate;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import java.util.List;

/**
 * Adagrad as in Keras: {@code acc += g^2; p -= lr g / sqrt(acc + epsilon)}, the accumulator starting at
 * {@code initial_accumulator_value}. (PyTorch adds its epsilon after the root and starts at 0 by default.)
 */
public final class Adagrad extends Optimizer {
    private final float initialAccumulatorValue;
    private final float epsilon;
    private final float weightDecay;

    /**
     * Adagrad with a constant learning rate; Keras' defaults are 0.001, 0.1 and 1e-7.
     *
     * @param learningRate the learning rate
     * @param initialAccumulatorValue the accumulator's starting value, at least 0
     * @param epsilon added to the accumulator before its root
     * @param weightDecay the decoupled weight decay, 0 for none
     */
    public Adagrad(float learningRate, float initialAccumulatorValue, float epsilon, float weightDecay) {
        this(learningRate, null, initialAccumulatorValue, epsilon, weightDecay);
    }

    /** The constructors' shared body: a constant {@code learningRate} when {@code schedule} is null. */
    private Adagrad(float learningRate, LearningRateSchedule schedule, float initialAccumulatorValue, float epsilon,
                    float weightDecay) {
        super(learningRate, schedule);
        this.initialAccumulatorValue = checkStart(initialAccumulatorValue);
        this.epsilon = epsilon;
        this.weightDecay = checkWeightDecay("adagrad", weightDecay);
    }

    /**
     * Adagrad whose learning rate follows {@code schedule}.
     *
     * @param schedule the learning-rate schedule
     * @param initialAccumulatorValue the accumulator's starting value, at least 0
     * @param epsilon added to the accumulator before its root
     * @param weightDecay the decoupled weight decay, 0 for none
     */
    public Adagrad(LearningRateSchedule schedule, float initialAccumulatorValue, float epsilon, float weightDecay) {
        this(0f, schedule, initialAccumulatorValue, epsilon, weightDecay);
    }

    private static float checkStart(float value) {
        if (!(value >= 0) || Float.isInfinite(value)) {
            throw new IllegalArgumentException("adagrad: initial_accumulator_value must be a finite number >= 0, got "
                    + value);
        }
        return value;
    }

    @Override
    public String name() {
        return "adagrad";
    }

    @Override
    public int hyperParameterCount() {
        return AdagradUpdate.HYPER_LENGTH;
    }

    @Override
    public float[] hyperParameters() {
        float lr = learningRate();
        float[] hyper = new float[AdagradUpdate.HYPER_LENGTH];
        hyper[AdagradUpdate.LR] = lr;
        hyper[AdagradUpdate.EPS] = epsilon;
        hyper[AdagradUpdate.DECAY] = (float) ((double) lr * weightDecay);
        return hyper;
    }

    @Override
    protected List<Variable> createSlots(Variable v) {
        return List.of(filledLike(v, "accumulator", initialAccumulatorValue));
    }

    @Override
    protected void update(Graph g, Variable v, Node grad, List<Variable> slots, Node hyper) {
        g.update(new AdagradUpdate(), v, grad, slots, hyper);
    }

    /** Keras' Adagrad settings: {@code initial_accumulator_value}, {@code epsilon} and the weight decay. */
    @Override
    public java.util.Map<String, Object> ownConfig() {
        return config(weightDecay, "initial_accumulator_value", initialAccumulatorValue, "epsilon", epsilon);
    }
}

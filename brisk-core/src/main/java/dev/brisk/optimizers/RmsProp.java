package dev.brisk.optimizers;

import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;
import dev.brisk.ops.RmspropFullUpdate;
import dev.brisk.ops.RmspropUpdate;
import dev.brisk.ops.Variable;
import java.util.ArrayList;
import java.util.List;

/**
 * RMSprop as in Keras, with its {@code momentum}, {@code centered} and {@code weight_decay} options. The plain rule
 * runs as {@link RmspropUpdate}; with any option on, as {@link RmspropFullUpdate}.
 */
public final class RmsProp extends Optimizer {
    private final float rho;
    private final float momentum;
    private final float epsilon;
    private final boolean centered;
    private final float weightDecay;

    /**
     * Plain RMSprop with a constant learning rate; Keras' defaults are 0.001, 0.9 and 1e-7.
     *
     * @param learningRate the learning rate
     * @param rho the decay of the running mean of squared gradients
     * @param epsilon added to the mean square before its root, against division by zero
     */
    public RmsProp(float learningRate, float rho, float epsilon) {
        this(learningRate, rho, 0f, epsilon, false, 0f);
    }

    /**
     * RMSprop with a constant learning rate and Keras' options.
     *
     * @param learningRate the learning rate
     * @param rho the decay of the running mean of squared gradients (Keras' default 0.9)
     * @param momentum the momentum, 0 for none (Keras' default)
     * @param epsilon added to the mean square before its root (Keras' default 1e-7)
     * @param centered whether to divide by the gradient's running variance rather than its mean square
     * @param weightDecay the decoupled weight decay, 0 for none
     */
    public RmsProp(float learningRate, float rho, float momentum, float epsilon, boolean centered,
                   float weightDecay) {
        this(learningRate, null, rho, momentum, epsilon, centered, weightDecay);
    }

    /** The constructors' shared body: a constant {@code learningRate} when {@code schedule} is null. */
    private RmsProp(float learningRate, LearningRateSchedule schedule, float rho, float momentum, float epsilon,
                    boolean centered,
                   float weightDecay) {
        super(learningRate, schedule);
        this.rho = rho;
        this.momentum = checkMomentum(momentum);
        this.epsilon = epsilon;
        this.centered = centered;
        this.weightDecay = checkWeightDecay("rmsprop", weightDecay);
    }

    /**
     * Plain RMSprop whose learning rate follows {@code schedule}.
     *
     * @param schedule the learning-rate schedule
     * @param rho the decay of the running mean of squared gradients
     * @param epsilon added to the mean square before its root, against division by zero
     */
    public RmsProp(LearningRateSchedule schedule, float rho, float epsilon) {
        this(schedule, rho, 0f, epsilon, false, 0f);
    }

    /**
     * RMSprop with Keras' options whose learning rate follows {@code schedule}.
     *
     * @param schedule the learning-rate schedule
     * @param rho the decay of the running mean of squared gradients
     * @param momentum the momentum, 0 for none
     * @param epsilon added to the mean square before its root
     * @param centered whether to divide by the gradient's running variance rather than its mean square
     * @param weightDecay the decoupled weight decay, 0 for none
     */
    public RmsProp(LearningRateSchedule schedule, float rho, float momentum, float epsilon, boolean centered,
                   float weightDecay) {
        this(0f, schedule, rho, momentum, epsilon, centered, weightDecay);
    }

    private static float checkMomentum(float momentum) {
        if (!(momentum >= 0 && momentum < 1)) {
            throw new IllegalArgumentException("rmsprop: momentum must be in [0, 1), got " + momentum);
        }
        return momentum;
    }

    private boolean plain() {
        return momentum == 0 && !centered && weightDecay == 0;
    }

    @Override
    public String name() {
        return "rmsprop";
    }

    @Override
    public int hyperParameterCount() {
        return plain() ? RmspropUpdate.HYPER_LENGTH : RmspropFullUpdate.HYPER_LENGTH;
    }

    @Override
    public float[] hyperParameters() {
        float lr = learningRate();
        if (plain()) {
            float[] hyper = new float[RmspropUpdate.HYPER_LENGTH];
            hyper[RmspropUpdate.LR] = lr;
            hyper[RmspropUpdate.EPS] = epsilon;
            return hyper;
        }
        float[] hyper = new float[RmspropFullUpdate.HYPER_LENGTH];
        hyper[RmspropFullUpdate.LR] = lr;
        hyper[RmspropFullUpdate.EPS] = epsilon;
        hyper[RmspropFullUpdate.DECAY] = (float) ((double) lr * weightDecay);
        return hyper;
    }

    /** The mean square ({@code velocity}), then {@code momentum} when on, then {@code average_gradient} if centred. */
    @Override
    protected List<Variable> createSlots(Variable v) {
        List<Variable> s = new ArrayList<>(List.of(zerosLike(v, "velocity")));
        if (momentum > 0) {
            s.add(zerosLike(v, "momentum"));
        }
        if (centered) {
            s.add(zerosLike(v, "average_gradient"));
        }
        return List.copyOf(s);
    }

    /** Keras makes every velocity, then every momentum, then every average gradient, each in its own call. */
    @Override
    protected int[] slotGroups() {
        return momentum > 0 ? new int[] {0, 1, 2} : new int[] {0, 1};
    }

    @Override
    protected void update(Graph g, Variable v, Node grad, List<Variable> slots, Node hyper) {
        if (plain()) {
            g.update(new RmspropUpdate(rho), v, grad, slots, hyper);
        } else {
            g.update(new RmspropFullUpdate(rho, momentum, centered), v, grad, slots, hyper);
        }
    }

    /** Keras' RMSprop settings: {@code rho}, {@code momentum}, {@code epsilon}, {@code centered}, weight decay. */
    @Override
    public java.util.Map<String, Object> ownConfig() {
        return config(weightDecay, "rho", rho, "momentum", momentum, "epsilon", epsilon, "centered", centered);
    }
}

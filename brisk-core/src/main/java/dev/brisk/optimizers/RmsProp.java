package dev.brisk.optimizers;

import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;
import dev.brisk.ops.RmspropUpdate;
import dev.brisk.ops.Variable;
import java.util.List;

/** RMSprop (not centred, no momentum), as in Keras. */
public final class RmsProp extends Optimizer {
    private final float rho;
    private final float epsilon;

    /**
     * RMSprop with a constant learning rate; Keras' defaults are 0.001, 0.9 and 1e-7.
     *
     * @param learningRate the learning rate
     * @param rho the decay of the running mean of squared gradients
     * @param epsilon added to the mean square before its root, against division by zero
     */
    public RmsProp(float learningRate, float rho, float epsilon) {
        super(learningRate);
        this.rho = rho;
        this.epsilon = epsilon;
    }

    /**
     * RMSprop whose learning rate follows {@code schedule}.
     *
     * @param schedule the learning-rate schedule
     * @param rho the decay of the running mean of squared gradients
     * @param epsilon added to the mean square before its root, against division by zero
     */
    public RmsProp(LearningRateSchedule schedule, float rho, float epsilon) {
        super(schedule);
        this.rho = rho;
        this.epsilon = epsilon;
    }

    @Override
    public String name() {
        return "rmsprop";
    }

    @Override
    public int hyperParameterCount() {
        return RmspropUpdate.HYPER_LENGTH;
    }

    @Override
    public float[] hyperParameters() {
        float[] hyper = new float[RmspropUpdate.HYPER_LENGTH];
        hyper[RmspropUpdate.LR] = learningRate();
        hyper[RmspropUpdate.EPS] = epsilon;
        return hyper;
    }

    @Override
    protected List<Variable> createSlots(Variable v) {
        return List.of(zerosLike(v, "velocity"));
    }

    @Override
    protected void update(Graph g, Variable v, Node grad, List<Variable> slots, Node hyper) {
        g.update(new RmspropUpdate(rho), v, grad, slots, hyper);
    }

    /** Keras' RMSprop settings: {@code rho}, {@code momentum} (always 0), {@code epsilon}, {@code centered} (false). */
    @Override
    public java.util.Map<String, Object> ownConfig() {
        java.util.Map<String, Object> c = new java.util.LinkedHashMap<>();
        c.put("rho", rho);
        c.put("momentum", 0f);
        c.put("epsilon", epsilon);
        c.put("centered", false);
        return c;
    }
}

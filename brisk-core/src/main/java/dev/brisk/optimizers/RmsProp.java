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

    public RmsProp(float learningRate, float rho, float epsilon) {
        super(learningRate);
        this.rho = rho;
        this.epsilon = epsilon;
    }

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
}

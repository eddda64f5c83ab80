package dev.brisk.optimizers;

import dev.brisk.graph.Graph;
import dev.brisk.ops.NadamUpdate;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Tensor;
import java.util.List;

/**
 * Nadam (Adam with Nesterov momentum) as in Keras, with its momentum-cache schedule
 * {@code u_t = beta1 (1 - 0.5 * 0.96^t)}: {@code m_hat = u_{t+1} m / (1 - prod u_1..u_{t+1})
 * + (1 - u_t) g / (1 - prod u_1..u_t)}, {@code v_hat = v / (1 - beta2^t)},
 * {@code p -= lr m_hat / (sqrt(v_hat) + epsilon)}. PyTorch's NAdam is the same rule with
 * {@code momentum_decay = 1} (its default 0.004 makes {@code 0.96^(0.004 t)}) and its epsilon added the same way.
 *
 * <p>Keras keeps the running product {@code u_product} as an optimizer variable, stored after the slots; so does
 * this class ({@link #ownVariables()}). The host computes it in double, step by step, the same products in the same
 * order as {@link #setIterations} recomputes them, so a model restored from a step count continues bit for bit; the
 * variable mirrors it for saving.
 */
public final class Nadam extends Optimizer {
    private static final double DECAY = 0.96;
    private final float beta1;
    private final float beta2;
    private final float epsilon;
    private final float weightDecay;
    private final Variable uProduct = new Variable("nadam/u_product", Tensor.scalar(1f), false);
    /** {@code u_1 ... u_iterations}, in double. */
    private double product = 1;

    /**
     * Nadam with a constant learning rate; Keras' defaults are 0.001, 0.9, 0.999 and 1e-7.
     *
     * @param learningRate the learning rate
     * @param beta1 the decay of the first moment
     * @param beta2 the decay of the second moment
     * @param epsilon added to the root of the second moment, against division by zero
     * @param weightDecay the decoupled weight decay, 0 for none
     */
    public Nadam(float learningRate, float beta1, float beta2, float epsilon, float weightDecay) {
        this(learningRate, null, beta1, beta2, epsilon, weightDecay);
    }

    /** The constructors' shared body: a constant {@code learningRate} when {@code schedule} is null. */
    private Nadam(float learningRate, LearningRateSchedule schedule, float beta1, float beta2, float epsilon,
                  float weightDecay) {
        super(learningRate, schedule);
        this.beta1 = beta1;
        this.beta2 = beta2;
        this.epsilon = epsilon;
        this.weightDecay = checkWeightDecay("nadam", weightDecay);
    }

    /**
     * Nadam whose learning rate follows {@code schedule}.
     *
     * @param schedule the learning-rate schedule
     * @param beta1 the decay of the first moment
     * @param beta2 the decay of the second moment
     * @param epsilon added to the root of the second moment, against division by zero
     * @param weightDecay the decoupled weight decay, 0 for none
     */
    public Nadam(LearningRateSchedule schedule, float beta1, float beta2, float epsilon, float weightDecay) {
        this(0f, schedule, beta1, beta2, epsilon, weightDecay);
    }

    /** Keras' momentum cache {@code u_t = beta1 (1 - 0.5 * 0.96^t)}. */
    private double u(double t) {
        return beta1 * (1 - 0.5 * Math.pow(DECAY, t));
    }

    @Override
    public String name() {
        return "nadam";
    }

    @Override
    public int hyperParameterCount() {
        return NadamUpdate.HYPER_LENGTH;
    }

    @Override
    public float[] hyperParameters() {
        double t = iterations() + 1;
        double lr = learningRate();
        double uT = u(t);
        double uNext = u(t + 1);
        double productT = product * uT; // Keras multiplies u_product by u_t before the update
        double productNext = productT * uNext;
        float[] hyper = new float[NadamUpdate.HYPER_LENGTH];
        hyper[NadamUpdate.M_RATE] = (float) (lr * uNext / (1 - productNext));
        hyper[NadamUpdate.G_RATE] = (float) (lr * (1 - uT) / (1 - productT));
        hyper[NadamUpdate.V_CORRECTION] = (float) (1 / (1 - Math.pow(beta2, t)));
        hyper[NadamUpdate.EPS] = epsilon;
        hyper[NadamUpdate.DECAY] = (float) (lr * weightDecay);
        return hyper;
    }

    @Override
    public void finishStep() {
        product *= u(iterations() + 1);
        uProduct.assign(Tensor.scalar((float) product));
        super.finishStep();
    }

    /** Also sets {@code u_product} to {@code u_1 ... u_iterations}, as Keras' would be after that many steps. */
    @Override
    public void setIterations(long iterations) {
        super.setIterations(iterations);
        double p = 1;
        for (long t = 1; t <= iterations; t++) {
            p *= u(t);
        }
        product = p;
        uProduct.assign(Tensor.scalar((float) product));
    }

    @Override
    public List<Variable> ownVariables() {
        return List.of(uProduct);
    }

    @Override
    protected List<Variable> createSlots(Variable v) {
        return List.of(zerosLike(v, "momentum"), zerosLike(v, "velocity"));
    }

    /** Keras makes every momentum, then every velocity, in two calls. */
    @Override
    protected int[] slotGroups() {
        return new int[] {0, 1};
    }

    @Override
    protected void update(Graph g, Variable v, Node grad, List<Variable> slots, Node hyper) {
        g.update(new NadamUpdate(beta1, beta2), v, grad, slots, hyper);
    }

    /** Keras' Nadam settings: {@code beta_1}, {@code beta_2}, {@code epsilon} and the weight decay. */
    @Override
    public java.util.Map<String, Object> ownConfig() {
        return config(weightDecay, "beta_1", beta1, "beta_2", beta2, "epsilon", epsilon);
    }
}

package dev.brisk.optimizers;

import dev.brisk.graph.Graph;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.Node;
import dev.brisk.ops.UnaryFn;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Base of the optimisers. An optimiser adds its update ops to the train-step graph once; the values that change
 * from step to step (learning rate, bias corrections) are computed on the host by {@link #hyperParameters()} and
 * fed as a small input, so a compiled step never needs re-tracing when the learning rate changes.
 */
public abstract class Optimizer {
    private float learningRate;
    private final LearningRateSchedule schedule;
    private float clipNorm;
    private float globalClipNorm;
    private long iterations;
    /**
     * Each parameter's state variables, in the order the parameters were first updated (the model's order of
     * trainable weights), so that saved optimizer state lines up with the weights it belongs to. Variables compare
     * by identity (Variable keeps Object's equals).
     */
    private final Map<Variable, List<Variable>> slots = new LinkedHashMap<>();

    /**
     * An optimiser with a constant learning rate (changeable by {@link #setLearningRate}).
     *
     * @param learningRate the learning rate
     */
    protected Optimizer(float learningRate) {
        this.learningRate = learningRate;
        this.schedule = null;
    }

    /**
     * An optimiser whose learning rate follows {@code schedule}, step by step.
     *
     * @param schedule the schedule, asked once per update
     */
    protected Optimizer(LearningRateSchedule schedule) {
        this.schedule = schedule;
    }

    /**
     * Keras' name of the optimiser ("adam").
     *
     * @return the name, as in Keras' {@code get_config()}
     */
    public abstract String name();

    /**
     * Clips each gradient to this L2 norm (Keras {@code clipnorm}); 0 turns clipping off.
     *
     * @param norm the largest L2 norm of each gradient; 0 turns clipping off
     * @return this optimiser
     */
    public Optimizer clipNorm(float norm) {
        this.clipNorm = norm;
        return this;
    }

    /**
     * Clips all gradients together to this global L2 norm (Keras {@code global_clipnorm}); 0 turns it off.
     *
     * @param norm the largest L2 norm of all gradients together; 0 turns clipping off
     * @return this optimiser
     */
    public Optimizer globalClipNorm(float norm) {
        this.globalClipNorm = norm;
        return this;
    }

    /**
     * The number of updates applied so far.
     *
     * @return the update count, Keras' {@code optimizer.iterations}
     */
    public long iterations() {
        return iterations;
    }

    /**
     * The learning-rate schedule, or null for a constant rate.
     *
     * @return the schedule, or null
     */
    public LearningRateSchedule schedule() {
        return schedule;
    }

    /**
     * The L2 norm each gradient is clipped to (Keras {@code clipnorm}), 0 when off.
     *
     * @return the clip norm
     */
    public float clipNormValue() {
        return clipNorm;
    }

    /**
     * The global L2 norm all gradients are clipped to (Keras {@code global_clipnorm}), 0 when off.
     *
     * @return the global clip norm
     */
    public float globalClipNormValue() {
        return globalClipNorm;
    }

    /**
     * Keras' {@code get_config()} of this optimizer, without the keys every optimizer has (name, learning rate,
     * clipping): Adam's betas and epsilon, SGD's momentum, and so on.
     *
     * @return the optimizer's own settings, by Keras' names
     */
    public abstract java.util.Map<String, Object> ownConfig();

    /**
     * The state variables of {@code v}, made now (zero-filled) if no update of {@code v} has run yet, as Keras'
     * {@code optimizer.build(variables)} does: a restored optimizer gets its slots before its first step so that
     * the saved values can be put in them.
     *
     * @param v a trainable variable
     * @return its slot variables, in this optimizer's order (Adam: m, then v)
     */
    public List<Variable> slotsOf(Variable v) {
        return slots.computeIfAbsent(v, this::createSlots);
    }

    /**
     * The learning rate the next update will use.
     *
     * @return the learning rate: the constant one, or the schedule's value at {@link #iterations()}
     */
    public float learningRate() {
        return schedule != null ? schedule.at(iterations) : learningRate;
    }

    /**
     * Sets a constant learning rate (as ReduceLROnPlateau does); not allowed with a schedule.
     *
     * @param lr the new learning rate
     */
    public void setLearningRate(float lr) {
        if (schedule != null) {
            throw new IllegalStateException("this optimizer follows a learning-rate schedule; its rate cannot be set");
        }
        this.learningRate = lr;
    }

    /**
     * True when the learning rate comes from a schedule.
     *
     * @return whether a schedule sets the learning rate
     */
    public boolean hasSchedule() {
        return schedule != null;
    }

    /**
     * How many per-step hyper-parameters {@link #hyperParameters()} returns.
     *
     * @return the length of the hyper-parameter vector
     */
    public abstract int hyperParameterCount();

    /**
     * The per-step values fed to the update ops for the next step, laid out by the index constants of this
     * optimiser's {@link dev.brisk.ops.UpdateAttrs} record.
     *
     * @return a new array of {@link #hyperParameterCount()} values
     */
    public abstract float[] hyperParameters();

    /**
     * Sets the update count, as when restoring a checkpoint (Keras' {@code optimizer.iterations.assign}): Adam's
     * bias corrections and learning-rate schedules read it.
     *
     * @param iterations the number of updates already applied, at least 0
     */
    public void setIterations(long iterations) {
        if (iterations < 0) {
            throw new IllegalArgumentException("iterations must be at least 0, got " + iterations);
        }
        this.iterations = iterations;
    }

    /** Counts one applied update (called by the trainer after each step). */
    public void finishStep() {
        iterations++;
    }

    /**
     * Adds the (clipped) updates of {@code vars} by {@code grads} to the graph.
     *
     * @param g the training graph
     * @param vars the trainable variables
     * @param grads the gradient of the loss by each variable, in the same order
     * @param hyper the node that feeds {@link #hyperParameters()} to the update ops each step
     */
    public final void apply(Graph g, List<Variable> vars, List<Node> grads, Node hyper) {
        List<Node> clipped = clip(g, grads);
        for (int i = 0; i < vars.size(); i++) {
            Variable v = vars.get(i);
            List<Variable> s = slots.computeIfAbsent(v, this::createSlots);
            update(g, v, clipped.get(i), s, hyper);
        }
    }

    /**
     * Creates the state of every variable in {@code vars} that has none yet (Keras' {@code optimizer.build}), so
     * that saved state can be restored into {@link #slotVariables()} before the first step.
     *
     * @param vars the trainable variables, in the model's order
     */
    public void build(List<Variable> vars) {
        for (Variable v : vars) {
            slots.computeIfAbsent(v, this::createSlots);
        }
    }

    /**
     * The state variables this optimiser keeps for {@code v} (zero-initialised).
     *
     * @param v a trainable variable
     * @return the slot variables (e.g. Adam's first and second moments), in the order {@link #update} receives them
     */
    protected abstract List<Variable> createSlots(Variable v);

    /**
     * Adds the update of one variable.
     *
     * @param g the training graph
     * @param v the variable to update
     * @param grad its (clipped) gradient
     * @param slots its state variables, as {@link #createSlots} made them
     * @param hyper the hyper-parameter vector node
     */
    protected abstract void update(Graph g, Variable v, Node grad, List<Variable> slots, Node hyper);

    /**
     * The state variables of every parameter seen so far (for saving).
     *
     * @return every slot variable, grouped by parameter, the groups in the order the parameters were first updated
     */
    public List<Variable> slotVariables() {
        List<Variable> all = new ArrayList<>();
        slots.values().forEach(all::addAll);
        return all;
    }

    /**
     * A zero-filled, non-trainable slot for {@code v}, named {@code <v's name>/<slot>}.
     *
     * @param v the variable the slot belongs to
     * @param slot the slot's name, e.g. {@code m}
     * @return the slot variable, shaped like {@code v}
     */
    protected static Variable zerosLike(Variable v, String slot) {
        return new Variable(v.name() + "/" + slot, Tensor.zeros(v.shape()), false);
    }

    private List<Node> clip(Graph g, List<Node> grads) {
        List<Node> out = new ArrayList<>(grads);
        if (clipNorm > 0) {
            for (int i = 0; i < out.size(); i++) {
                Node gr = out.get(i);
                out.set(i, g.mul(gr, clipFactor(g, g.sumAll(g.square(gr)), clipNorm)));
            }
        }
        if (globalClipNorm > 0 && !out.isEmpty()) {
            Node total = null;
            for (Node gr : out) {
                Node s = g.sumAll(g.square(gr));
                total = total == null ? s : g.add(total, s);
            }
            Node factor = clipFactor(g, total, globalClipNorm);
            out.replaceAll(gr -> g.mul(gr, factor));
        }
        return out;
    }

    /** {@code limit / max(norm, limit)}: 1 when the norm is within the limit. */
    private static Node clipFactor(Graph g, Node sumOfSquares, float limit) {
        Node norm = g.unary(UnaryFn.SQRT, sumOfSquares);
        Node bounded = g.binary(BinaryFn.MAX, norm, g.constant(limit));
        return g.div(g.constant(limit), bounded);
    }

    /**
     * A one-dimensional hyper-parameter vector of {@code n} values, as a node shape.
     *
     * @return the shape {@code [hyperParameterCount()]}
     */
    public Shape hyperShape() {
        return Shape.of(hyperParameterCount());
    }
}

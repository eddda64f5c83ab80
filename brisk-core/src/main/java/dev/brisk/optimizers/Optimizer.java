package dev.brisk.optimizers;

import dev.brisk.graph.Graph;
import dev.brisk.io.KerasObject;
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
    private float clipValue;
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
     * An optimiser whose learning rate follows {@code schedule} when it is not null, else the constant
     * {@code learningRate}: one constructor body serves both of a subclass's public constructors.
     *
     * @param learningRate the constant learning rate, read when {@code schedule} is null
     * @param schedule the schedule, or null
     */
    protected Optimizer(float learningRate, LearningRateSchedule schedule) {
        this.learningRate = schedule == null ? learningRate : 0f;
        this.schedule = schedule;
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
        checkClip("clipnorm", norm);
        this.clipNorm = norm;
        return this;
    }

    /**
     * Clips each gradient element to {@code [-value, value]} (Keras {@code clipvalue}); 0 turns clipping off.
     *
     * @param value the largest absolute value of a gradient element; 0 turns clipping off
     * @return this optimiser
     */
    public Optimizer clipValue(float value) {
        checkClip("clipvalue", value);
        this.clipValue = value;
        return this;
    }

    /**
     * The value each gradient element is clipped to (Keras {@code clipvalue}), 0 when off.
     *
     * @return the clip value
     */
    public float clipValueValue() {
        return clipValue;
    }

    /** Keras allows one kind of clipping per optimizer ("Only one of clipnorm, clipvalue and global_clipnorm"). */
    private void checkClip(String option, float limit) {
        if (!(limit >= 0) || Float.isInfinite(limit)) {
            throw new IllegalArgumentException(option + " must be a finite number >= 0 (0 turns it off), got " + limit);
        }
        int others = (clipNorm > 0 && !option.equals("clipnorm") ? 1 : 0)
                + (globalClipNorm > 0 && !option.equals("global_clipnorm") ? 1 : 0)
                + (clipValue > 0 && !option.equals("clipvalue") ? 1 : 0);
        if (limit > 0 && others > 0) {
            throw new IllegalArgumentException("only one of clipnorm, clipvalue and global_clipnorm can be set, as in "
                    + "Keras; " + option + " " + limit + " was asked for with another already set");
        }
    }

    /**
     * Clips all gradients together to this global L2 norm (Keras {@code global_clipnorm}); 0 turns it off.
     *
     * @param norm the largest L2 norm of all gradients together; 0 turns clipping off
     * @return this optimiser
     */
    public Optimizer globalClipNorm(float norm) {
        checkClip("global_clipnorm", norm);
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
     * Every state variable of this optimizer for {@code trainables}, in the order Keras stores them in a
     * {@code .keras} file after {@code iterations} (and the learning rate): Keras makes them with one
     * {@code add_optimizer_variables} call per group of slots, each call's slots interleaved variable by variable
     * (Adam: m0, v0, m1, v1, ...), the calls one after the other (RMSprop with momentum: every velocity, then every
     * momentum), then any variable of the optimizer's own ({@link #ownVariables()}, Nadam's {@code u_product}).
     *
     * @param trainables the model's trainable variables, in its order
     * @return the state variables, made now where missing
     */
    public List<Variable> stateVariables(List<Variable> trainables) {
        int[] group = slotGroups();
        int groups = 1;
        for (int gr : group) {
            groups = Math.max(groups, gr + 1);
        }
        List<Variable> out = new ArrayList<>();
        for (int gr = 0; gr < groups; gr++) {
            for (Variable v : trainables) {
                List<Variable> s = slotsOf(v);
                for (int i = 0; i < s.size(); i++) {
                    if ((i < group.length ? group[i] : 0) == gr) {
                        out.add(s.get(i));
                    }
                }
            }
        }
        out.addAll(ownVariables());
        return out;
    }

    /**
     * For each slot (in {@link #createSlots} order), the index of the Keras {@code add_optimizer_variables} call
     * that makes it; by default one call for all of them.
     *
     * @return one group index per slot, from 0 (a slot past the array's end is in group 0)
     */
    protected int[] slotGroups() {
        return new int[0];
    }

    /**
     * The state this optimizer keeps beside the per-variable slots (Keras stores it after them), none by default.
     *
     * @return the optimizer's own state variables
     */
    public List<Variable> ownVariables() {
        return List.of();
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

    /**
     * A non-trainable slot for {@code v} filled with {@code value} (Adagrad's initial accumulator).
     *
     * @param v the variable the slot belongs to
     * @param slot the slot's name
     * @param value every element's starting value
     * @return the slot variable, shaped like {@code v}
     */
    protected static Variable filledLike(Variable v, String slot, float value) {
        Tensor t = Tensor.zeros(v.shape());
        java.util.Arrays.fill(t.data(), t.offset(), t.offset() + t.size(), value);
        return new Variable(v.name() + "/" + slot, t, false);
    }

    /**
     * A Keras {@code get_config()} map of the given settings in order, then {@code weight_decay} when it is on
     * (Keras omits nothing, but Brisk's files name the decay only where one is set, as they always have).
     *
     * @param weightDecay the decoupled weight decay, 0 for none
     * @param keysAndValues Keras' key, then the value, for each setting
     * @return the settings, in order
     */
    protected static Map<String, Object> config(float weightDecay, Object... keysAndValues) {
        Map<String, Object> c = KerasObject.config(keysAndValues);
        if (weightDecay > 0) {
            c.put("weight_decay", weightDecay);
        }
        return c;
    }

    /**
     * Checks a decoupled weight decay (Keras {@code weight_decay}): a finite number at least 0.
     *
     * @param optimizer the optimizer's name, for the message
     * @param weightDecay the decay
     * @return {@code weightDecay}
     */
    protected static float checkWeightDecay(String optimizer, float weightDecay) {
        if (!(weightDecay >= 0) || Float.isInfinite(weightDecay)) {
            throw new IllegalArgumentException(optimizer + ": weight_decay must be a finite number >= 0, got "
                    + weightDecay);
        }
        return weightDecay;
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
        if (clipValue > 0) {
            Node lo = g.constant(-clipValue);
            Node hi = g.constant(clipValue);
            out.replaceAll(gr -> g.binary(BinaryFn.MIN, g.binary(BinaryFn.MAX, gr, lo), hi));
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

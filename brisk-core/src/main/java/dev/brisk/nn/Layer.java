package dev.brisk.nn;

import dev.brisk.graph.Graph;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Shape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Base class of layers. A layer is built lazily on its first call, from the per-sample shapes of its inputs (the
 * batch axis is never part of a layer's shapes), and then emits graph ops on every call. The same code serves
 * eager and compiled execution.
 */
public abstract class Layer implements dev.brisk.io.KerasObject {
    private static final Map<String, AtomicInteger> NAME_COUNTS = new ConcurrentHashMap<>();
    private final String name;
    private final List<Variable> weights = new ArrayList<>();
    private final List<Variable> regularizedWeights = new ArrayList<>();
    private final List<Regularizer> regularizers = new ArrayList<>();
    private final WeightOptions options = new WeightOptions();
    private final List<Layer> sublayers = new ArrayList<>();
    private List<Shape> builtFor;
    /** The input shapes {@link #build} is running for (null otherwise), for {@link #requireClosed}'s message. */
    private List<Shape> building;
    /** Keras' {@code layer.trainable}: false freezes every weight of the layer (see {@link #setTrainable}). */
    private volatile boolean trainable = true;
    /**
     * Bumped whenever any layer's or model's trainability changes, so that a step runner sees it with one volatile
     * read per step and traces its train step again (the frozen weights leave the optimizer's update list and a
     * frozen BatchNormalization switches to inference mode: both change the graph).
     */
    private static final AtomicLong TRAINABILITY_VERSION = new AtomicLong();

    /**
     * A layer named {@code name}, or a unique Keras-style name ("dense_2") when null.
     *
     * @param name the name, or null for an automatic one
     */
    protected Layer(String name) {
        this.name = name != null ? name : uniqueName(defaultName());
    }

    private String defaultName() {
        String simple = getClass().getSimpleName();
        // Keras' to_snake_case: "Conv2D" -> "conv2d", "MaxPooling2D" -> "max_pooling2d".
        return simple.replaceAll("(.)([A-Z][a-z]+)", "$1_$2").replaceAll("([a-z])([A-Z])", "$1_$2")
                .toLowerCase();
    }

    private static String uniqueName(String base) {
        int n = NAME_COUNTS.computeIfAbsent(base, k -> new AtomicInteger()).getAndIncrement();
        return n == 0 ? base : base + "_" + n;
    }

    /**
     * The layer's name, unique within its model.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    @Override
    public String kerasClassName() {
        return typeName();
    }

    /**
     * Keras' {@code get_config()}: {@code name}, {@code trainable} and {@code dtype} here, each layer's own
     * arguments added by its class, under Keras 3's names (a whole-model file records them; a loader makes the
     * layer again from them).
     *
     * @return the configuration
     */
    @Override
    public Map<String, Object> kerasConfig() {
        Map<String, Object> c = new java.util.LinkedHashMap<>();
        c.put("name", name);
        c.put("trainable", trainable);
        c.put("dtype", DTypePolicy.FLOAT32);
        return c;
    }

    /**
     * The layer's own random seed (Keras' {@code seed} of Dropout and MultiHeadAttention), which each train step's
     * seed is mixed with to draw the layer's random numbers; empty for layers that draw none. Whole-model files and
     * backups save it, so a restored model draws what the original would have.
     *
     * @return the seed, or empty
     */
    public java.util.OptionalLong seed() {
        return java.util.OptionalLong.empty();
    }

    /**
     * Sets the layer's random seed (see {@link #seed()}).
     *
     * @param seed the seed
     * @return this layer
     * @throws IllegalStateException for a layer that draws no random numbers
     */
    public Layer setSeed(long seed) {
        throw new IllegalStateException("layer '" + name + "' (" + typeName() + ") draws no random numbers");
    }

    /**
     * The per-sample shapes of the inputs the layer was built for, or null before it is built.
     *
     * @return the input shapes, batch axis excluded
     */
    public List<Shape> builtInputShapes() {
        return builtFor;
    }

    /**
     * Keras' class name, shown in summaries ("Dense").
     *
     * @return the class name
     */
    public String typeName() {
        return getClass().getSimpleName();
    }

    /**
     * The per-sample output shape for inputs of the given per-sample shapes; throws with the layer's name if bad.
     *
     * @param inputShapes the per-sample shape of each input
     * @return the per-sample output shape
     */
    public abstract Shape outputShape(List<Shape> inputShapes);

    /**
     * The per-sample shape of each output, for inputs of the given per-sample shapes. A layer of one output (most)
     * has {@link #outputShape}'s; a layer of several (a recurrent layer with {@code returnState}) lists them all, its
     * {@code outputShape} being the first.
     *
     * @param inputShapes the per-sample shape of each input
     * @return the per-sample shape of each output
     */
    public List<Shape> outputShapes(List<Shape> inputShapes) {
        return List.of(outputShape(inputShapes));
    }

    /**
     * Creates the layer's weights for inputs of the given per-sample shapes.
     *
     * @param inputShapes the per-sample shape of each input
     */
    protected void build(List<Shape> inputShapes) {
    }

    /**
     * Emits the layer's ops: {@code inputs} include the batch axis.
     *
     * @param g the graph the ops are added to
     * @param inputs the input nodes, batch axis first
     * @param ctx training or inference, and the random seed
     * @return the output node
     */
    protected abstract Node call(Graph g, List<Node> inputs, CallContext ctx);

    /**
     * Emits the layer's ops and returns every output ({@link #outputShapes}); a layer of several outputs overrides
     * it, and its {@link #call} gives the first.
     *
     * @param g the graph the ops are added to
     * @param inputs the input nodes, batch axis first
     * @param ctx training or inference, and the random seed
     * @return the output nodes
     */
    protected List<Node> callAll(Graph g, List<Node> inputs, CallContext ctx) {
        return List.of(call(g, inputs, ctx));
    }

    /**
     * Applies the layer in the functional API.
     *
     * @param inputs the tensors to apply the layer to
     * @return the layer's output, to apply further layers to or to pass to {@link Model#of}
     */
    public final SymbolicTensor apply(SymbolicTensor... inputs) {
        List<SymbolicTensor> in = List.of(inputs);
        List<Shape> shapes = in.stream().map(SymbolicTensor::shape).toList();
        ensureBuilt(shapes);
        return new SymbolicTensor(this, in, checkedOutputShape(shapes));
    }

    /**
     * Applies a layer of several outputs in the functional API (Keras' {@code out, h, c = lstm(x)}); for a layer of
     * one output it is {@code List.of(apply(inputs))}.
     *
     * @param inputs the tensors to apply the layer to
     * @return one tensor per output ({@link #outputShapes})
     */
    public final List<SymbolicTensor> applyAll(SymbolicTensor... inputs) {
        List<SymbolicTensor> in = List.of(inputs);
        List<Shape> shapes = in.stream().map(SymbolicTensor::shape).toList();
        ensureBuilt(shapes);
        List<Shape> outs = checkedOutputShapes(shapes);
        if (outs.size() == 1) {
            return List.of(new SymbolicTensor(this, in, outs.get(0)));
        }
        SymbolicTensor call = new SymbolicTensor(this, in, outs.get(0), SymbolicTensor.SEVERAL);
        List<SymbolicTensor> out = new ArrayList<>(outs.size());
        for (int i = 0; i < outs.size(); i++) {
            out.add(new SymbolicTensor(this, List.of(call), outs.get(i), i));
        }
        return List.copyOf(out);
    }

    /**
     * Builds the layer if needed and emits its ops, returning every output ({@link #callAll}).
     *
     * @param g the graph the ops are added to
     * @param inputs the input nodes, batch axis first
     * @param ctx training or inference, and the random seed
     * @return the output nodes
     */
    public final List<Node> invokeAll(Graph g, List<Node> inputs, CallContext ctx) {
        List<Shape> shapes = new ArrayList<>(inputs.size());
        for (Node n : inputs) {
            shapes.add(n.shape().dropFirst());
        }
        ensureBuilt(shapes);
        List<Node> outs = g.inScope(name, () -> callAll(g, inputs, ctx));
        options.addActivityPenalties(g, outs);
        return outs;
    }

    /**
     * Builds the layer if needed and emits its ops, attributing them to the layer in errors.
     *
     * @param g the graph the ops are added to
     * @param inputs the input nodes, batch axis first
     * @param ctx training or inference, and the random seed
     * @return the output node
     */
    public final Node invoke(Graph g, List<Node> inputs, CallContext ctx) {
        // A loop, not a stream: eager mode calls this for every layer of every step.
        List<Shape> shapes = new ArrayList<>(inputs.size());
        for (Node n : inputs) {
            shapes.add(n.shape().dropFirst());
        }
        ensureBuilt(shapes);
        Node out = g.inScope(name, () -> call(g, inputs, ctx));
        passMask(g, inputs, out);
        options.addActivityPenalties(g, List.of(out));
        return out;
    }

    /**
     * Keras' {@code supports_masking}: whether the layer's output keeps its input's padding mask unchanged (a layer
     * that works on each step alone: Dense, Dropout, Activation, LayerNormalization). Layers that compute a mask of
     * their own set it in {@link #call} ({@link Graph#setMask}).
     *
     * @return true to pass the mask on
     */
    protected boolean passesMask() {
        return false;
    }

    /** Attaches the input's mask to the output when the layer passes masks and the output still has its steps. */
    private void passMask(Graph g, List<Node> inputs, Node out) {
        if (!passesMask() || inputs.size() != 1 || g.maskOf(out) != null) {
            return;
        }
        Node mask = g.maskOf(inputs.get(0));
        if (mask != null && out.shape().rank() > mask.shape().rank()
                && Arrays.equals(Arrays.copyOf(out.shape().dims(), mask.shape().rank()), mask.shape().dims())) {
            g.setMask(out, mask);
        }
    }

    /**
     * The per-sample output shape, with errors that name this layer.
     *
     * @param inputShapes the per-sample shape of each input
     * @return the per-sample output shape
     */
    public final Shape checkedOutputShape(List<Shape> inputShapes) {
        try {
            return outputShape(inputShapes);
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("layer '")) {
                throw e;
            }
            throw new IllegalArgumentException("layer '" + name + "' (" + typeName() + "): " + e.getMessage(), e);
        }
    }

    private List<Shape> checkedOutputShapes(List<Shape> inputShapes) {
        try {
            return outputShapes(inputShapes);
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("layer '")) {
                throw e;
            }
            throw new IllegalArgumentException("layer '" + name + "' (" + typeName() + "): " + e.getMessage(), e);
        }
    }

    final void ensureBuilt(List<Shape> shapes) {
        if (builtFor == null) {
            checkedOutputShape(shapes);
            building = shapes;
            try {
                build(shapes);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("layer '" + name + "' (" + typeName() + "): " + e.getMessage(), e);
            } finally {
                building = null;
            }
            builtFor = List.copyOf(shapes);
        } else if (!accepts(builtFor, shapes) && !weights.isEmpty()) {
            throw new IllegalArgumentException("layer '" + name + "' (" + typeName() + ") was built for input "
                    + describe(builtFor) + " but is now called on " + describe(shapes));
        }
    }

    /**
     * Whether a layer built for {@code built} takes inputs of {@code shapes}: an axis open when it was built (a
     * sequence length) takes any size, since no weight depends on it ({@link #addWeight} refuses that). A loop
     * over the shapes, no allocation: eager steps call it for every layer.
     */
    private static boolean accepts(List<Shape> built, List<Shape> shapes) {
        if (built.size() != shapes.size()) {
            return false;
        }
        for (int i = 0; i < built.size(); i++) {
            if (!built.get(i).accepts(shapes.get(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Refuses a weight whose shape would hold an open axis of the input it is built for: its size would change from
     * batch to batch. Names the open axes of that input, batch axis counted as Keras counts it.
     */
    private void requireClosed(String weightName, Shape shape) {
        if (!shape.isOpen()) {
            return;
        }
        StringBuilder where = new StringBuilder();
        for (Shape in : building == null ? List.<Shape>of() : building) {
            for (int a = 0; a < in.rank(); a++) {
                if (in.dim(a) == Shape.OPEN) {
                    where.append(where.isEmpty() ? "" : ", ").append("axis ").append(a + 1).append(" of ")
                            .append(withBatch(in));
                }
            }
        }
        throw new IllegalArgumentException("its weight '" + weightName + "' would be sized by an open axis of its "
                + "input (" + where + "): declare that axis' size in the model's Input, or put a layer that "
                + "removes it (global pooling, a recurrent layer without returnSequences) before this one");
    }

    /**
     * Whether the layer has created its weights (on its first call).
     *
     * @return true once the weights exist
     */
    public boolean isBuilt() {
        return builtFor != null;
    }

    private static String describe(List<Shape> shapes) {
        return shapes.size() == 1 ? withBatch(shapes.get(0)).toString()
                : shapes.stream().map(s -> withBatch(s).toString()).toList().toString();
    }

    /**
     * A per-sample shape shown Keras-style with the batch axis as None: "(None, 28, 28, 1)".
     *
     * @param s the per-sample shape
     * @return the shape as Keras prints it
     */
    public static String withBatch(Shape s) {
        StringBuilder sb = new StringBuilder("(None");
        for (int d : s.dims()) {
            sb.append(", ").append(d == Shape.OPEN ? "None" : String.valueOf(d));
        }
        return sb.append(')').toString();
    }

    /**
     * Creates a weight; {@code regularizer} may be null.
     *
     * @param weightName the weight's name within the layer, e.g. {@code kernel}; the full name is {@code
     *     <layer>/<weightName>}
     * @param shape the weight's shape
     * @param init makes its initial value
     * @param trainable false for weights only the forward pass updates
     * @param regularizer adds a penalty to the loss, or null
     * @param fanIn the fan-in the initializer sees
     * @param fanOut the fan-out the initializer sees
     * @return the new weight, registered with the layer
     */
    protected final Variable addWeight(String weightName, Shape shape, Initializer init, boolean trainable,
                                       Regularizer regularizer, int fanIn, int fanOut) {
        requireClosed(weightName, shape);
        WeightBudget.take(name, weightName, shape);
        Variable v = new Variable(name + "/" + weightName, init.create(shape, fanIn, fanOut, RandomSeed.next()),
                trainable);
        weights.add(v);
        Regularizer r = regularizer != null ? regularizer : options.regularizer(weightName);
        if (r != null) {
            regularizedWeights.add(v);
            regularizers.add(r);
            options.setRegularizer(weightName, r);
        }
        options.created(weightName, v);
        return v;
    }

    /**
     * Sets the regularizer of the weight this layer will make as {@code weightName} (Keras' {@code bias_regularizer}
     * is {@code "bias"}'s); layers expose it under Keras' option names.
     *
     * @param weightName the weight's name within the layer
     * @param regularizer the penalty, or null for none
     */
    protected final void setWeightRegularizer(String weightName, Regularizer regularizer) {
        requireUnbuilt(weightName + " regularizer");
        options.setRegularizer(weightName, regularizer);
    }

    /**
     * Sets the constraint applied to the weight {@code weightName} after each optimizer step (Keras'
     * {@code kernel_constraint} is {@code "kernel"}'s).
     *
     * @param weightName the weight's name within the layer
     * @param constraint the projection, or null for none
     */
    protected final void setWeightConstraint(String weightName, Constraint constraint) {
        requireUnbuilt(weightName + " constraint");
        options.setConstraint(weightName, constraint);
    }

    /**
     * The regularizer of the weight {@code weightName}, for the layer's Keras config.
     *
     * @param weightName the weight's name within the layer
     * @return the regularizer, or null
     */
    public final Regularizer weightRegularizer(String weightName) {
        return options.regularizer(weightName);
    }

    /**
     * The constraint of the weight {@code weightName}, for the layer's Keras config.
     *
     * @param weightName the weight's name within the layer
     * @return the constraint, or null
     */
    public final Constraint weightConstraint(String weightName) {
        return options.constraint(weightName);
    }

    /**
     * Keras' {@code activity_regularizer}: adds {@code regularizer(output) / batch size} to the loss (of training and
     * of evaluation, as Keras) for each output of each call of this layer.
     *
     * @param regularizer the penalty on the output, or null for none
     * @return this layer
     */
    public Layer activityRegularizer(Regularizer regularizer) {
        options.setActivity(regularizer);
        return this;
    }

    /**
     * The activity regularizer, or null.
     *
     * @return Keras' {@code activity_regularizer}
     */
    public final Regularizer activityRegularizer() {
        return options.activity();
    }

    /** Projects this layer's and its sublayers' constrained weights (after each optimizer step). */
    final void applyConstraints() {
        options.applyConstraints();
        for (Layer sub : sublayers) {
            sub.applyConstraints();
        }
    }

    private void requireUnbuilt(String what) {
        if (builtFor != null) {
            throw new IllegalStateException("layer '" + name + "': set the " + what + " before the layer is built "
                    + "(its weights exist already)");
        }
    }

    /**
     * Freezes ({@code false}) or unfreezes the layer, as Keras' {@code layer.trainable = ...}: a frozen layer's
     * weights leave {@link #trainableWeights()} (the optimizer no longer updates them and keeps their slots for a
     * later unfreeze), and a frozen layer that behaves differently in training (BatchNormalization) runs in
     * inference mode, as in Keras. A model re-plans its compiled train step at its next step.
     *
     * @param value false to freeze, true to train the layer's weights again
     * @return this layer
     */
    public Layer setTrainable(boolean value) {
        if (trainable != value) {
            trainable = value;
            TRAINABILITY_VERSION.incrementAndGet();
        }
        return this;
    }

    /**
     * Whether the layer is trainable (Keras' {@code layer.trainable}); see {@link #setTrainable}.
     *
     * @return false when the layer is frozen
     */
    public boolean isTrainable() {
        return trainable;
    }

    /** The count of trainability changes so far, process-wide: a step runner re-traces when it moves. */
    static long trainabilityVersion() {
        return TRAINABILITY_VERSION.get();
    }

    /** Records a trainability change made outside a layer (a model's own flag). */
    static void trainabilityChanged() {
        TRAINABILITY_VERSION.incrementAndGet();
    }

    /**
     * All weights, trainable first in creation order (as Keras' get_weights). The order follows each weight's own
     * kind (gamma before moving_mean), not the layer's trainability, so freezing a layer does not reorder its
     * weights in files or in {@code getWeights()} (Keras keeps its variable order the same way).
     *
     * @return the weights
     */
    public List<Variable> weights() {
        List<Variable> out = new ArrayList<>(weightsWhere(true));
        out.addAll(weightsWhere(false));
        return out;
    }

    /**
     * The weights the optimizer updates, in creation order: none while the layer is frozen.
     *
     * @return the trainable weights
     */
    public List<Variable> trainableWeights() {
        return trainable ? weightsWhere(true) : List.of();
    }

    /**
     * The weights the optimizer does not update, in creation order: the ones only a forward pass updates
     * (batch-norm statistics), and while the layer is frozen all of them (trainable kind first, as Keras).
     *
     * @return the non-trainable weights
     */
    public List<Variable> nonTrainableWeights() {
        return trainable ? weightsWhere(false) : weights();
    }

    // A loop, not a stream: every eager train step asks for the trainable weights, and the stream machinery would
    // reach the JIT compiler late in training, in measured time (docs/benchmark-log.md).
    private List<Variable> weightsWhere(boolean trainable) {
        List<Variable> out = new ArrayList<>(weights.size());
        for (Variable v : weights) {
            if (v.trainable() == trainable) {
                out.add(v);
            }
        }
        for (Layer sub : sublayers) {
            out.addAll(sub.weightsWhere(trainable));
        }
        return Collections.unmodifiableList(out);
    }

    /**
     * Makes {@code sub} part of this layer (a wrapper's inner layers: {@code Bidirectional}, {@code TimeDistributed}):
     * its weights are listed after this layer's own, counted in its parameters and regularized with them.
     *
     * @param sub the inner layer
     * @param <L> its type
     * @return {@code sub}
     */
    protected final <L extends Layer> L track(L sub) {
        sublayers.add(sub);
        return sub;
    }

    /**
     * Builds an inner layer for inputs of the given per-sample shapes (from this layer's {@link #build}), so that
     * its weights exist before the first call, as this layer's own do.
     *
     * @param sub the inner layer
     * @param inputShapes the per-sample shape of each of its inputs
     */
    protected static void buildSublayer(Layer sub, List<Shape> inputShapes) {
        sub.ensureBuilt(inputShapes);
    }

    /**
     * Number of scalars in all weights.
     *
     * @return the parameter count, trainable and not
     */
    public long parameterCount() {
        return weights.stream().mapToLong(v -> v.shape().size()).sum()
                + sublayers.stream().mapToLong(Layer::parameterCount).sum();
    }

    /**
     * The activation this layer applies last to its output, or null when it has none of its own (the loss check
     * that a softmax output is not read as logits uses it).
     *
     * @return the last activation, or null
     */
    public Activation outputActivation() {
        return null;
    }

    /**
     * The sum of the regularisation penalties of this layer's weights, or null if it has none.
     *
     * @param g the graph the penalty is added to
     * @return a scalar node, or null
     */
    public Node regularizationLoss(Graph g) {
        Node total = null;
        for (Node penalty : options.takeActivityPenalties(g)) {
            total = total == null ? penalty : g.add(total, penalty);
        }
        for (int i = 0; i < regularizedWeights.size(); i++) {
            Node penalty = regularizers.get(i).penalty(g, g.variable(regularizedWeights.get(i)));
            total = total == null ? penalty : g.add(total, penalty);
        }
        for (Layer sub : sublayers) {
            Node penalty = sub.regularizationLoss(g);
            if (penalty != null) {
                total = total == null ? penalty : g.add(total, penalty);
            }
        }
        return total;
    }

    /**
     * The only input shape of a layer that takes one input; throws when there is not exactly one.
     *
     * @param shapes the per-sample input shapes
     * @return the one shape
     */
    protected static Shape single(List<Shape> shapes) {
        if (shapes.size() != 1) {
            throw new IllegalArgumentException("expects one input, got " + shapes.size());
        }
        return shapes.get(0);
    }

    /**
     * {@code in}, refused when an axis is open ({@link Shape#OPEN}): for layers whose output's sizes are computed
     * from every input axis when the model is built (the 2-D convolutions, pooling, padding and cropping), naming
     * the open axis.
     *
     * @param in a per-sample input shape
     * @return {@code in}
     * @throws IllegalArgumentException naming the open axis
     */
    protected static Shape requireSizes(Shape in) {
        for (int a = 0; a < in.rank(); a++) {
            if (in.dim(a) == Shape.OPEN) {
                throw new IllegalArgumentException("axis " + (a + 1) + " of input " + withBatch(in) + " is open "
                        + "(None); this layer needs every size of its input when the model is built");
            }
        }
        return in;
    }

    @Override
    public String toString() {
        return typeName() + "(" + name + (builtFor == null ? "" : ", input " + describe(builtFor)) + ")"
                + (weights.isEmpty() ? "" : " " + Arrays.toString(weights.toArray()));
    }
}

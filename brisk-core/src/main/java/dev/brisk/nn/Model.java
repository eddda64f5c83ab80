package dev.brisk.nn;

import dev.brisk.backend.Backends;
import dev.brisk.backend.Kernels;
import dev.brisk.callbacks.EpochStats;
import dev.brisk.callbacks.History;
import dev.brisk.callbacks.TrainingTarget;
import dev.brisk.data.Batch;
import dev.brisk.data.Dataset;
import dev.brisk.data.Pipeline;
import dev.brisk.exec.Plan;
import dev.brisk.graph.Graph;
import dev.brisk.io.WeightsFile;
import dev.brisk.losses.Loss;
import dev.brisk.metrics.MetricSpec;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import dev.brisk.optimizers.Optimizer;
import dev.brisk.profile.Profile;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A model: layers wired from inputs to outputs (the functional API), with Keras' {@code compile}, {@code fit},
 * {@code evaluate}, {@code predict} and {@code summary}. Training runs compiled by default; {@link #runEagerly}
 * switches to op-by-op execution for debugging.
 */
public class Model implements TrainingTarget {
    private static final java.util.concurrent.atomic.AtomicInteger FUNCTIONAL_COUNT =
            new java.util.concurrent.atomic.AtomicInteger();
    private final String name;
    private List<SymbolicTensor> inputs = List.of();
    private List<SymbolicTensor> outputs = List.of();
    private List<SymbolicTensor> order = List.of();
    private List<Layer> layers = List.of();
    /** Layer outputs that more than one layer call reads, or that the model returns: see {@link #forward}. */
    private Set<SymbolicTensor> readTwice = Set.of();

    private Optimizer optimizer;
    private List<Loss> losses;
    private List<MetricSpec> metricSpecs = List.of();
    /** Keras' {@code loss_weights}, one per output, or null for 1 each. */
    private float[] lossWeights;
    /** The metrics of each output when {@code compile} gave them per output, or null (then every output's are
     * {@link #metricSpecs}). */
    private List<List<MetricSpec>> metricsPerOutput;
    private boolean runEagerly;
    /** Train steps run so far: each step's random seed (see {@link #randomState()}). */
    private final java.util.concurrent.atomic.AtomicLong trainSeeds = new java.util.concurrent.atomic.AtomicLong();
    /** Keras' {@code model.trainable}: false freezes the whole model whatever its layers say. */
    private volatile boolean trainable = true;
    private Kernels kernels = Backends.get();
    private final StepRunners runners = new StepRunners(this);
    private final ModelGuard guard;
    private volatile boolean stopRequested;
    private EpochStats lastEpochStats;
    private boolean gradientRequest;
    private Map<String, Tensor> capturedGradients = Map.of();
    private Profile lastProfile;
    /** The warnings this model has printed, each printed once (see {@link #warnOnce}). */
    private final Set<String> warned = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * A functional model from its inputs to its outputs.
     *
     * @param inputs the model's inputs, made by {@link Input}
     * @param outputs tensors computed from those inputs by applying layers
     * @return the model
     */
    public static Model of(List<SymbolicTensor> inputs, List<SymbolicTensor> outputs) {
        Model m = new Model("functional" + suffix(FUNCTIONAL_COUNT.getAndIncrement()));
        m.wire(inputs, outputs);
        return m;
    }

    /**
     * A functional model named {@code name} (a loaded model keeps its saved name).
     *
     * @param name the model's name
     * @param inputs the model's inputs, made by {@link Input}
     * @param outputs tensors computed from those inputs by applying layers
     * @return the model
     */
    public static Model of(String name, List<SymbolicTensor> inputs, List<SymbolicTensor> outputs) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a model name must not be empty");
        }
        Model m = new Model(name);
        m.wire(inputs, outputs);
        return m;
    }

    /**
     * A functional model with one input and one output.
     *
     * @param input the model's input, made by {@link Input}
     * @param output a tensor computed from it by applying layers
     * @return the model
     */
    public static Model of(SymbolicTensor input, SymbolicTensor output) {
        return of(List.of(input), List.of(output));
    }

    static String suffix(int n) {
        return n == 0 ? "" : "_" + n;
    }

    /**
     * Creates a model with no layers yet; subclasses such as {@link Sequential} add them.
     *
     * @param name the model's name, or null for an automatic one
     */
    protected Model(String name) {
        this.name = name;
        this.guard = new ModelGuard(name);
    }

    /**
     * The model's name, used in summaries and error messages.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * Connects inputs to outputs and orders the layer calls (each after the calls it depends on).
     *
     * @param ins the input tensors
     * @param outs the output tensors
     */
    protected final void wire(List<SymbolicTensor> ins, List<SymbolicTensor> outs) {
        for (SymbolicTensor in : ins) {
            if (!(in.layer() instanceof InputLayer)) {
                throw new IllegalArgumentException("model inputs must come from Input.of(...), got " + in);
            }
        }
        List<SymbolicTensor> sorted = new ArrayList<>();
        Set<SymbolicTensor> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (SymbolicTensor out : outs) {
            visit(out, ins, seen, sorted);
        }
        Set<Layer> ls = new LinkedHashSet<>();
        for (SymbolicTensor t : sorted) {
            ls.add(t.layer());
        }
        this.inputs = List.copyOf(ins);
        this.outputs = List.copyOf(outs);
        this.order = sorted.stream().filter(t -> !(t.layer() instanceof InputLayer)).toList();
        this.layers = List.copyOf(ls);
        this.readTwice = readTwice(order, outputs);
        runners.invalidate();
    }

    private static Set<SymbolicTensor> readTwice(List<SymbolicTensor> calls, List<SymbolicTensor> outputs) {
        Map<SymbolicTensor, Integer> reads = new IdentityHashMap<>();
        for (SymbolicTensor t : calls) {
            for (SymbolicTensor in : t.inputs()) {
                reads.merge(in, 1, Integer::sum);
            }
        }
        Set<SymbolicTensor> out = Collections.newSetFromMap(new IdentityHashMap<>());
        out.addAll(outputs);
        reads.forEach((t, n) -> {
            if (n > 1) {
                out.add(t);
            }
        });
        return out;
    }

    private static void visit(SymbolicTensor t, List<SymbolicTensor> ins, Set<SymbolicTensor> seen,
                              List<SymbolicTensor> sorted) {
        if (!seen.add(t)) {
            return;
        }
        if (t.layer() instanceof InputLayer && !ins.contains(t)) {
            throw new IllegalArgumentException("output depends on input '" + t.layer().name()
                    + "' which is not among the model's inputs");
        }
        for (SymbolicTensor in : t.inputs()) {
            visit(in, ins, seen, sorted);
        }
        sorted.add(t);
    }

    /**
     * The model's inputs (for a Sequential model, once it is built).
     *
     * @return the input tensors
     */
    public List<SymbolicTensor> inputs() {
        return inputs;
    }

    /**
     * The model's output tensors, in order.
     *
     * @return the output tensors
     */
    public List<SymbolicTensor> outputs() {
        return outputs;
    }

    /**
     * The layers, in call order, each once (input layers included).
     *
     * @return the layers
     */
    public List<Layer> layers() {
        return layers;
    }

    /**
     * Ends an optimizer step as Keras' {@code apply_gradients} does: counts it, then projects every constrained
     * weight ({@link Constraint}).
     */
    void finishOptimizerStep() {
        optimizer().finishStep();
        for (Layer l : layers) {
            l.applyConstraints();
        }
    }

    /**
     * The layer named {@code layerName}.
     *
     * @param layerName the layer's name
     * @return the layer
     */
    public Layer layer(String layerName) {
        for (Layer l : layers) {
            if (l.name().equals(layerName)) {
                return l;
            }
        }
        throw new IllegalArgumentException("no layer named '" + layerName + "' in model '" + name + "'");
    }

    /**
     * Builds the model for inputs of these per-sample shapes (Sequential models wire themselves here).
     *
     * @param sampleShapes the shape of one sample of each input
     */
    protected void ensureBuilt(Shape[] sampleShapes) {
        if (sampleShapes.length != inputs.size()) {
            throw new IllegalArgumentException("model '" + name + "' has " + inputs.size() + " input(s) but got "
                    + sampleShapes.length);
        }
        for (int i = 0; i < sampleShapes.length; i++) {
            Shape expected = inputs.get(i).shape();
            if (!expected.accepts(sampleShapes[i])) {
                throw new IllegalArgumentException("input '" + inputs.get(i).layer().name() + "' of model '" + name
                        + "' expects data of shape " + Layer.withBatch(expected) + " but got "
                        + Layer.withBatch(sampleShapes[i]));
            }
        }
    }

    /**
     * Emits the forward pass of the model into {@code g}.
     *
     * @param g the graph the ops are added to
     * @param inputNodes one node per model input, batch axis first
     * @param ctx training or inference, and the random seed
     * @return one node per model output
     */
    public List<Node> forward(Graph g, List<Node> inputNodes, CallContext ctx) {
        // One fusing block around the layers lets an eager graph run a convolution's chain and the pooling layer
        // after it as one call; an output read by more than the next layer gets its value at once instead. Loops,
        // not streams: eager mode runs this every step.
        return g.fusing(() -> {
            Map<SymbolicTensor, Node> values = new IdentityHashMap<>();
            for (int i = 0; i < inputs.size(); i++) {
                Node x = inputNodes.get(i);
                if (inputs.get(i).layer() instanceof InputLayer in && in.dtype() != x.dtype()) {
                    in.invoke(g, List.of(x), ctx); // throws: the data's dtype is not the declared one
                }
                values.put(inputs.get(i), x);
            }
            Map<SymbolicTensor, List<Node>> several = new IdentityHashMap<>();
            for (SymbolicTensor t : order) {
                if (t.isOutputOfSeveral()) {
                    values.put(t, several.get(t.inputs().get(0)).get(t.output()));
                    continue;
                }
                Node out;
                if (t.isCallOfSeveral()) {
                    List<Node> outs = t.layer().invokeAll(g, nodesOf(t.inputs(), values), ctx);
                    several.put(t, outs);
                    out = outs.get(0);
                } else {
                    out = t.layer().invoke(g, nodesOf(t.inputs(), values), ctx);
                }
                if (readTwice.contains(t)) {
                    g.settle(out);
                }
                values.put(t, out);
            }
            return nodesOf(outputs, values);
        });
    }


    private static List<Node> nodesOf(List<SymbolicTensor> tensors, Map<SymbolicTensor, Node> values) {
        List<Node> out = new ArrayList<>(tensors.size());
        for (SymbolicTensor t : tensors) {
            out.add(values.get(t));
        }
        return out;
    }

    // ---- compile ----

    /**
     * Configures training with one loss for every output.
     *
     * @param optimizer the optimiser
     * @param loss the loss of every output
     * @param metrics the metrics to report, e.g. {@link dev.brisk.metrics.Metrics#accuracy()}
     */
    public void compile(Optimizer optimizer, Loss loss, MetricSpec... metrics) {
        if (loss == null) {
            throw new IllegalArgumentException("compile of model '" + name + "' needs a loss, got null");
        }
        compile(optimizer, Collections.nCopies(Math.max(1, outputs.size()), loss), metrics);
    }

    /**
     * Configures training with one loss per output (their sum is minimised).
     *
     * @param optimizer the optimiser
     * @param lossPerOutput one loss per output, in output order
     * @param metrics the metrics to report
     */
    public void compile(Optimizer optimizer, List<Loss> lossPerOutput, MetricSpec... metrics) {
        if (optimizer == null) {
            throw new IllegalArgumentException("compile of model '" + name + "' needs an optimizer, got null");
        }
        if (lossPerOutput == null || lossPerOutput.isEmpty() || lossPerOutput.stream().anyMatch(l -> l == null)) {
            throw new IllegalArgumentException("compile of model '" + name + "' needs a loss for every output, got "
                    + lossPerOutput);
        }
        for (MetricSpec m : metrics) {
            if (m == null) {
                throw new IllegalArgumentException("compile of model '" + name + "' got a null metric");
            }
        }
        setCompiled(optimizer, List.copyOf(lossPerOutput), null, List.of(metrics), null);
    }

    /**
     * Configures training with one loss, loss weight and metric list per output, in output order (Keras'
     * {@code compile(loss=[...], loss_weights=[...], metrics=[[...], [...]])}): the weighted sum of the outputs'
     * losses is minimised, and each output's metrics are reported under its layer's name ({@code out_accuracy}),
     * as is its weighted loss ({@code out_loss}).
     *
     * @param optimizer the optimiser
     * @param lossPerOutput one loss per output
     * @param lossWeights one weight per output (Keras' {@code loss_weights}), or null for 1 each
     * @param metricsPerOutput one list of metrics per output, or null for none
     */
    public void compile(Optimizer optimizer, List<Loss> lossPerOutput, List<Float> lossWeights,
                        List<List<MetricSpec>> metricsPerOutput) {
        CompileOutputs c = CompileOutputs.byPosition(name, outputs.size(), lossPerOutput, lossWeights,
                metricsPerOutput);
        setCompiled(optimizer, c.losses(), c.lossWeights(), List.of(), c.metrics());
    }

    /**
     * Configures training by output layer name (Keras' dicts): a loss for every output, and optionally a loss
     * weight (1 when absent) and metrics (none when absent) for some. An unknown name is refused.
     *
     * @param optimizer the optimiser
     * @param losses the loss of each output, by output layer name
     * @param lossWeights loss weights by output layer name, or null
     * @param metrics metrics by output layer name, or null
     */
    public void compile(Optimizer optimizer, Map<String, Loss> losses, Map<String, Float> lossWeights,
                        Map<String, List<MetricSpec>> metrics) {
        CompileOutputs c = CompileOutputs.byName(name, outputs.stream().map(t -> t.layer().name()).toList(),
                losses, lossWeights, metrics);
        setCompiled(optimizer, c.losses(), c.lossWeights(), List.of(), c.metrics());
    }

    private void setCompiled(Optimizer optimizer, List<Loss> lossList, float[] weights, List<MetricSpec> shared,
                             List<List<MetricSpec>> perOutput) {
        if (optimizer == null) {
            throw new IllegalArgumentException("compile of model '" + name + "' needs an optimizer, got null");
        }
        guard.exclusive("compile", () -> {
            this.optimizer = optimizer;
            this.losses = lossList;
            this.lossWeights = weights;
            this.metricSpecs = shared;
            this.metricsPerOutput = perOutput;
            runners.invalidate();
            return null;
        });
    }

    /**
     * Runs steps op by op (true) instead of as a compiled plan (false, the default).
     *
     * @param eager true to run op by op (easier to debug, slower)
     * @return this model
     */
    public Model runEagerly(boolean eager) {
        guard.exclusive("runEagerly", () -> {
            this.runEagerly = eager;
            runners.invalidate();
            return null;
        });
        return this;
    }

    /**
     * Whether steps run op by op rather than as a compiled plan.
     *
     * @return true when steps run eagerly
     */
    public boolean runsEagerly() {
        return runEagerly;
    }

    /**
     * Uses {@code k} instead of the default backend. Package-private: tests pick the scalar or vector kernels
     * through it (see the test-side {@code ModelInternals}); users choose with {@code -Dbrisk.kernels}.
     */
    Model kernels(Kernels k) {
        guard.exclusive("kernels", () -> {
            this.kernels = k;
            runners.invalidate();
            return null;
        });
        return this;
    }

    /**
     * The kernels this model's steps run on.
     *
     * @return the kernels
     */
    public Kernels kernels() {
        return kernels;
    }

    @Override
    public Optimizer optimizer() {
        return optimizer;
    }

    List<Loss> losses() {
        if (losses == null) {
            throw new IllegalStateException("model '" + name + "' must be compiled before training or evaluation");
        }
        if (losses.size() == 1 && outputs.size() > 1) {
            losses = Collections.nCopies(outputs.size(), losses.get(0));
        }
        if (losses.size() != outputs.size()) {
            throw new IllegalStateException("model '" + name + "' has " + outputs.size() + " outputs but "
                    + losses.size() + " losses");
        }
        return losses;
    }

    List<MetricSpec> metricSpecs() {
        return metricSpecs;
    }

    /** The metrics of output {@code i}: its own list when compile gave them per output, else the shared list. */
    List<MetricSpec> metricSpecs(int i) {
        return metricsPerOutput != null ? metricsPerOutput.get(i) : metricSpecs;
    }

    /** The weight of output {@code i}'s loss in the total (Keras' {@code loss_weights}; 1 unless compiled so). */
    float lossWeight(int i) {
        return lossWeights == null ? 1f : lossWeights[i];
    }

    /**
     * The loss weights given to {@code compile}, one per output, or null when none were given (1 each).
     *
     * @return a copy of the loss weights, or null
     */
    public float[] compiledLossWeights() {
        return lossWeights == null ? null : lossWeights.clone();
    }

    /**
     * The metrics given to {@code compile} per output, or null when one list applies to every output
     * ({@link #compiledMetrics()}).
     *
     * @return the metrics of each output, or null
     */
    public List<List<MetricSpec>> compiledMetricsPerOutput() {
        return metricsPerOutput;
    }

    /**
     * The losses given to {@code compile}, one per output (or one for all), or null before {@code compile}.
     *
     * @return the compiled losses, or null
     */
    public List<Loss> compiledLosses() {
        return losses;
    }

    /**
     * The metrics given to {@code compile} (empty before {@code compile}).
     *
     * @return the compiled metrics
     */
    public List<MetricSpec> compiledMetrics() {
        return metricSpecs;
    }

    /**
     * Whether the layer calls form a functional graph (false for {@link Sequential}, whose layers are a stack).
     *
     * @return true for functional models
     */
    public boolean functional() {
        return isFunctional();
    }

    /**
     * The layer calls in execution order (input layers excluded): each call's layer and the tensors it read.
     *
     * @return the calls
     */
    public List<SymbolicTensor> layerCalls() {
        return order;
    }

    /** A step runner for one call; give it back with {@link #releaseRunner}. */
    StepRunner acquireRunner() {
        return runners.acquire(kernels, runEagerly);
    }

    void releaseRunner(StepRunner r) {
        runners.release(r);
    }

    /** Builds the model for these input shapes, or checks them; one thread at a time, as it may wire layers. */
    void build(Shape[] sampleShapes) {
        synchronized (runners.traceLock()) {
            ensureBuilt(sampleShapes);
        }
    }

    /**
     * The compiled train-step plan for a batch size, once one has run (null in eager mode or before).
     * Package-private because {@link Plan} belongs to the internal execution engine; tests reach it through the
     * test-side {@code ModelInternals}.
     */
    Plan trainPlan(int batchSize) {
        return runners.trainPlan(batchSize);
    }

    /** How many steps the idle step runners have traced and planned, for tests of the plan cache. */
    int planTraces() {
        return runners.traces();
    }

    // ---- training ----

    /**
     * Trains on a dataset (single-input models).
     *
     * @param train the training data
     * @param options epochs, batch size, validation, callbacks and the rest
     * @return the history of the epochs' logs
     */
    public History fit(Dataset train, Fit options) {
        options.requireArrays("a Dataset", name);
        return guard.training(() -> new Training(this).fit(BatchSource.of(train), options));
    }

    /**
     * Trains on a pipeline of batches: one tensor per model input and per output, by position or by the input and
     * output layers' names ({@link dev.brisk.data.Sample#of(Map, Map)}), and optionally each sample's weight
     * ({@link dev.brisk.data.Sample#withWeight}). The pipeline batches and shuffles
     * itself: {@link Fit#shuffle} and {@link Fit#seed} do not apply, and {@link Fit#batchSize} batches only
     * validation arrays or datasets (given without them, it is refused rather than silently ignored); each epoch is
     * one pass, or {@link Fit#stepsPerEpoch} batches.
     *
     * @param train the batches
     * @param options epochs, validation, callbacks and the rest
     * @return the history of the epochs' logs
     */
    public History fit(Pipeline<Batch> train, Fit options) {
        if (options.batchSizeGiven && options.validationData == null && options.validationX == null) {
            throw new IllegalArgumentException("fit of model '" + name + "' on a Pipeline: Fit.batchSize("
                    + options.batchSize + ") does not apply, the pipeline makes the batches; set the size with the "
                    + "pipeline's batch(...) instead (Fit.batchSize only batches validation arrays or datasets)");
        }
        options.requireArrays("a Pipeline (give each sample its weight with Sample.withWeight)", name);
        requireSameClasses(train, options.validationPipeline);
        return guard.training(() -> {
            try (PipelineBatchSource source = new PipelineBatchSource(this, train, options.stepsPerEpoch, true, "fit")) {
                return new Training(this).fit(source, options);
            }
        });
    }

    /**
     * Training and validation labels that index different class lists (two image directories with different
     * sub-folders, each labelled by its own sorted list) would score the validation data against the wrong classes
     * without an error, so they are refused.
     */
    private void requireSameClasses(Pipeline<Batch> train, Pipeline<Batch> validation) {
        if (validation == null || train.classNames() == null || validation.classNames() == null
                || train.classNames().equals(validation.classNames())) {
            return;
        }
        throw new IllegalArgumentException("fit of model '" + name + "': the training data's labels index the classes "
                + train.classNames() + " but the validation data's index " + validation.classNames()
                + "; label the validation directory with the training classes (ImageDirectory.of(dir, "
                + "train.classNames()))");
    }

    /**
     * Trains on arrays: features {@code x} and targets {@code y}, sample axis first.
     *
     * @param x the inputs
     * @param y the targets
     * @param options epochs, batch size, validation, callbacks and the rest
     * @return the history of the epochs' logs
     */
    public History fit(Tensor x, Tensor y, Fit options) {
        return fit(new Tensor[] {x}, new Tensor[] {y}, options);
    }

    /**
     * Trains a multi-input / multi-output model on arrays.
     *
     * @param x one array per model input, sample axis first
     * @param y one array per model output, sample axis first
     * @param options epochs, batch size, validation, callbacks and the rest
     * @return the history of the epochs' logs
     */
    public History fit(Tensor[] x, Tensor[] y, Fit options) {
        ArraySplit split = ArraySplit.of(name, x, y, options.resolveOutputWeights(this));
        return guard.training(() -> new Training(this).fit(BatchSource.of(split.x(), split.y(), split.weights()),
                split.options()));
    }

    /**
     * Loss and metrics on {@code data}, by name.
     *
     * @param data the data
     * @param batchSize samples per batch
     * @return the loss and metrics, e.g. {@code loss} and {@code accuracy}
     */
    public Map<String, Double> evaluate(Dataset data, int batchSize) {
        requireBatchSize(batchSize, "evaluate");
        return guard.shared("evaluate", () -> new Training(this).evaluate(BatchSource.of(data), batchSize));
    }

    /**
     * The loss and metrics over {@code data}, by name, in batches of 32.
     *
     * @param data the data
     * @return the loss and metrics
     */
    public Map<String, Double> evaluate(Dataset data) {
        return evaluate(data, 32);
    }

    /**
     * Loss and metrics on one pass of a pipeline of (features, labels) batches.
     *
     * @param data the batches
     * @return the loss and metrics
     */
    public Map<String, Double> evaluate(Pipeline<Batch> data) {
        return guard.shared("evaluate", () -> {
            try (PipelineBatchSource source = new PipelineBatchSource(this, data, 0, true, "evaluate")) {
                return new Training(this).evaluate(source, 0);
            }
        });
    }

    /**
     * The loss and metrics over inputs {@code x} and labels {@code y}, by name, in batches of {@code batchSize}.
     *
     * @param x the inputs, sample axis first
     * @param y the targets, sample axis first
     * @param batchSize samples per batch
     * @return the loss and metrics
     */
    public Map<String, Double> evaluate(Tensor x, Tensor y, int batchSize) {
        return evaluate(new Tensor[] {x}, new Tensor[] {y}, batchSize);
    }

    /**
     * The loss and metrics of a multi-input / multi-output model over arrays, by name, in batches of
     * {@code batchSize}.
     *
     * @param x one array per model input, sample axis first
     * @param y one array per model output, sample axis first
     * @param batchSize samples per batch
     * @return the loss and metrics (per output, under the output layer's name, for several outputs)
     */
    public Map<String, Double> evaluate(Tensor[] x, Tensor[] y, int batchSize) {
        return evaluate(x, y, (Tensor) null, batchSize);
    }

    /**
     * As {@link #evaluate(Tensor[], Tensor[], int)}, with each sample's loss weighted by {@code sampleWeights}
     * (Keras' {@code sample_weight}; only the metrics compiled as {@code Metrics.weighted} count the weights, as
     * Keras' {@code weighted_metrics}).
     *
     * @param x one array per model input, sample axis first
     * @param y one array per model output, sample axis first
     * @param sampleWeights one weight per sample, or null
     * @param batchSize samples per batch
     * @return the loss and metrics
     */
    public Map<String, Double> evaluate(Tensor[] x, Tensor[] y, Tensor sampleWeights, int batchSize) {
        requireBatchSize(batchSize, "evaluate");
        Tensor w = sampleWeights == null ? null : sampleWeights.reshape(Shape.of(sampleWeights.size()));
        return guard.shared("evaluate", () -> new Training(this).evaluate(BatchSource.of(x, y, w), batchSize));
    }

    /**
     * As {@link #evaluate(Tensor[], Tensor[], Tensor, int)} with one weight array per output, in output order
     * (Keras' {@code sample_weight} as a list): output {@code i}'s loss and weighted metrics use
     * {@code sampleWeights[i]}.
     *
     * @param x one array per model input, sample axis first
     * @param y one array per model output, sample axis first
     * @param sampleWeights one array of weights per output, each of shape {@code (samples)}
     * @param batchSize samples per batch
     * @return the loss and metrics
     */
    public Map<String, Double> evaluate(Tensor[] x, Tensor[] y, Tensor[] sampleWeights, int batchSize) {
        requireBatchSize(batchSize, "evaluate");
        Tensor w = OutputWeights.flatForOneOutput(OutputWeights.byPosition(this, sampleWeights));
        return guard.shared("evaluate", () -> new Training(this).evaluate(BatchSource.of(x, y, w), batchSize));
    }

    /**
     * The outputs for inputs {@code x} (inference mode), batch by batch.
     *
     * @param x the inputs, sample axis first
     * @param batchSize samples per batch
     * @return the outputs, sample axis first
     */
    public Tensor predict(Tensor x, int batchSize) {
        return predict(new Tensor[] {x}, batchSize)[0];
    }

    /**
     * The model's output for inputs {@code x}, in batches of 32 (single-input, single-output models).
     *
     * @param x the inputs, sample axis first
     * @return the outputs, sample axis first
     */
    public Tensor predict(Tensor x) {
        return predict(x, 32);
    }

    /**
     * The outputs for one pass of a pipeline of batches (their labels, if any, are ignored).
     *
     * @param data the batches
     * @return the outputs of all batches, concatenated along the sample axis
     */
    public Tensor predict(Pipeline<Batch> data) {
        if (outputs.size() > 1) {
            throw new IllegalArgumentException("predict of model '" + name + "': the model has " + outputs.size()
                    + " outputs; use predictOutputs(pipeline), which gives one array per output");
        }
        return predictOutputs(data)[0];
    }

    /**
     * The outputs for one pass of a pipeline of batches (their labels, if any, are ignored), one array per model
     * output; the batches carry one tensor per model input, by position or by input name.
     *
     * @param data the batches
     * @return one array per output, the outputs of all batches concatenated along the sample axis
     */
    public Tensor[] predictOutputs(Pipeline<Batch> data) {
        return guard.shared("predict", () -> {
            try (PipelineBatchSource source = new PipelineBatchSource(this, data, 0, false, "predict")) {
                return new Training(this).predict(source, 0);
            }
        });
    }

    /**
     * The model's outputs for one input tensor per model input, in batches of {@code batchSize}.
     *
     * @param x one array per model input, sample axis first
     * @param batchSize samples per batch
     * @return one array per model output
     */
    public Tensor[] predict(Tensor[] x, int batchSize) {
        requireBatchSize(batchSize, "predict");
        return guard.shared("predict", () -> new Training(this).predict(BatchSource.of(x, null), batchSize));
    }

    private void requireBatchSize(int batchSize, String call) {
        if (batchSize < 1) {
            throw new IllegalArgumentException(call + " on model '" + name + "': batchSize must be at least 1, got "
                    + batchSize);
        }
    }

    /**
     * The state of the model's random stream: the number of train steps run so far, from which each train step's
     * dropout seed comes. Saving it with the weights and the optimizer's state lets a restored model continue
     * training exactly as the original would have.
     *
     * @return the random state
     */
    public long randomState() {
        return trainSeeds.get();
    }

    /**
     * Restores the random state saved by {@link #randomState()}.
     *
     * @param state the saved state, at least 0
     */
    public void restoreRandomState(long state) {
        if (state < 0) {
            throw new IllegalArgumentException("random state must be at least 0, got " + state);
        }
        trainSeeds.set(state);
    }

    /** Where the next fit resumes, set by a restored backup: {epoch, batches of it already trained}. */
    private int[] resume;

    @Override
    public void resumeAt(int epoch, int batch) {
        if (epoch < 0 || batch < 0) {
            throw new IllegalArgumentException("cannot resume at epoch " + epoch + ", batch " + batch);
        }
        resume = new int[] {epoch, batch};
    }

    /** The resume point of the fit starting now, taken once (null when none). */
    int[] takeResume() {
        int[] r = resume;
        resume = null;
        return r;
    }

    @Override
    public Map<String, Tensor> trainingState() {
        return guard.shared("trainingState", () -> TrainingState.capture(this));
    }

    @Override
    public void restoreTrainingState(Map<String, Tensor> state) {
        guard.exclusive("restoreTrainingState", () -> {
            TrainingState.restore(this, state);
            return null;
        });
    }

    /** The next train step's seed. */
    long nextTrainSeed() {
        return trainSeeds.getAndIncrement();
    }

    /**
     * Freezes ({@code false}) or unfreezes the whole model, as Keras' {@code model.trainable = ...}: sets the flag
     * of the model and of every layer (so a layer unfrozen afterwards trains again only once the model is
     * trainable). Frozen weights keep their values through {@code fit}, a frozen BatchNormalization runs in
     * inference mode, and the compiled train step is planned again at the next step. The optimizer keeps each
     * weight's state (Adam's moments) keyed to that weight, so unfreezing continues from it.
     *
     * @param value false to freeze, true to make the model and all its layers trainable
     * @return this model
     */
    public Model setTrainable(boolean value) {
        if (trainable != value) {
            trainable = value;
            Layer.trainabilityChanged();
        }
        for (Layer l : allLayers()) {
            l.setTrainable(value);
        }
        return this;
    }

    /**
     * Whether the model as a whole is trainable (Keras' {@code model.trainable}).
     *
     * @return false after {@code setTrainable(false)}
     */
    public boolean isTrainable() {
        return trainable;
    }

    /** Every layer of the model, including those of a Sequential model not yet built. */
    List<Layer> allLayers() {
        return layers;
    }

    /**
     * Every trainable weight of every layer, in layer order: none while the model is frozen, and none of a frozen
     * layer.
     *
     * @return the trainable weights
     */
    public List<Variable> trainableVariables() {
        List<Variable> out = new ArrayList<>();
        if (!trainable) {
            return out;
        }
        for (Layer l : layers) {
            out.addAll(l.trainableWeights());
        }
        return out;
    }

    /**
     * Every weight of every layer, in layer order (trainable then non-trainable per layer).
     *
     * @return all weights
     */
    public List<Variable> variables() {
        List<Variable> out = new ArrayList<>();
        for (Layer l : layers) {
            out.addAll(l.weights());
        }
        return out;
    }

    /**
     * Copies of all weights (Keras' get_weights).
     *
     * @return the weight values, in the order of {@link #variables()}
     */
    public List<Tensor> getWeights() {
        return guard.shared("getWeights", () -> variables().stream().map(v -> v.value().copy()).toList());
    }

    /**
     * Sets all weights, in the order of {@link #getWeights()}, checking count and shapes.
     *
     * @param weights one tensor per weight
     */
    public void setWeights(List<Tensor> weights) {
        guard.exclusive("setWeights", () -> {
            assignAll(weights);
            return null;
        });
    }

    private void assignAll(List<Tensor> weights) {
        List<Variable> vars = variables();
        if (weights.size() != vars.size()) {
            throw new IllegalArgumentException("model '" + name + "' has " + vars.size() + " weights but "
                    + weights.size() + " were given");
        }
        // Check every shape before writing any, so that a bad list leaves the model as it was.
        for (int i = 0; i < vars.size(); i++) {
            requireShape(vars.get(i), weights.get(i));
        }
        for (int i = 0; i < vars.size(); i++) {
            vars.get(i).assign(weights.get(i));
        }
    }

    private static void requireShape(Variable v, Tensor value) {
        if (!v.shape().equals(value.shape())) {
            throw new IllegalArgumentException("variable '" + v.name() + "' has shape " + v.shape()
                    + " but the new value has shape " + value.shape());
        }
    }

    @Override
    public Map<String, Tensor> weightsByName() {
        return guard.shared("weightsByName", () -> {
            Map<String, Tensor> out = new LinkedHashMap<>();
            for (Variable v : variables()) {
                out.put(v.name(), v.value().copy());
            }
            return out;
        });
    }

    @Override
    public void setWeightsByName(Map<String, Tensor> weights) {
        guard.exclusive("setWeightsByName", () -> {
            assignByName(weights);
            return null;
        });
    }

    private void assignByName(Map<String, Tensor> weights) {
        // Check every name and shape before writing any, so that a bad map leaves the model as it was.
        for (Variable v : variables()) {
            Tensor t = weights.get(v.name());
            if (t == null) {
                throw new IllegalArgumentException("no value for weight '" + v.name() + "'");
            }
            requireShape(v, t);
        }
        for (Variable v : variables()) {
            v.assign(weights.get(v.name()));
        }
    }

    @Override
    public void saveWeights(Path file) throws IOException {
        WeightsFile.save(file, weightsByName());
    }

    /**
     * Loads weights saved by {@link #saveWeights}: matched by name when every name is found, otherwise by position
     * (a model of the same architecture built in another order or process has other automatic layer names).
     *
     * @param file the weights file
     * @throws IOException if the file cannot be read, is malformed, or does not fit the model
     */
    public void loadWeights(Path file) throws IOException {
        Map<String, Tensor> w = WeightsFile.load(file);
        IOException failed = guard.exclusive("loadWeights", () -> assignLoaded(file, w));
        if (failed != null) {
            throw failed;
        }
    }

    /** Assigns weights read from {@code file}; a mismatch is returned (nothing assigned), not thrown. */
    private IOException assignLoaded(Path file, Map<String, Tensor> w) {
        List<Variable> vars = variables();
        boolean byName = vars.stream().allMatch(v -> w.containsKey(v.name()));
        try {
            if (byName) {
                assignByName(w);
                return null;
            }
            if (w.size() != vars.size()) {
                throw new IllegalArgumentException("the file holds " + w.size() + " weights, model '" + name
                        + "' has " + vars.size() + " (and their names differ)");
            }
            List<Tensor> values = new ArrayList<>(w.values());
            List<String> names = new ArrayList<>(w.keySet());
            for (int i = 0; i < vars.size(); i++) {
                if (!vars.get(i).shape().equals(values.get(i).shape())) {
                    throw new IllegalArgumentException("weight " + i + " ('" + names.get(i) + "' in the file, '"
                            + vars.get(i).name() + "' in the model) has shape " + values.get(i).shape()
                            + " in the file but " + vars.get(i).shape() + " in the model");
                }
            }
            assignAll(values);
            return null;
        } catch (IllegalArgumentException e) {
            return new IOException(file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Loads the weights of a {@link #saveWeights} file by name into a model that may have only some of the saved
     * layers, or more (transfer learning: a trained base into a model with a new head). Each of this model's weights
     * takes the saved value of the same full name ({@code <layer>/<weight>}; give the shared layers the same names
     * in both models). A saved value of another shape is an error that names it and changes nothing, or, with
     * {@code skipMismatch} (Keras' {@code skip_mismatch}), is skipped and reported. Weights the file lacks stay as
     * they are; saved weights the model lacks are ignored; both are in the report.
     *
     * @param file the weights file
     * @param skipMismatch true to skip weights whose saved shape differs instead of failing
     * @return what was loaded, skipped, missing and unused
     * @throws IOException if the file cannot be read or is malformed, or a shape differs without skipMismatch
     */
    public WeightsLoadReport loadWeightsByName(Path file, boolean skipMismatch) throws IOException {
        Map<String, Tensor> saved = WeightsFile.load(file);
        try {
            return setWeightsByName(saved, skipMismatch);
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Sets the weights named in {@code weights} (full names, {@code <layer>/<weight>}), as
     * {@link #loadWeightsByName(Path, boolean)} does with a file's. Every shape is checked before any weight is
     * written, so an error leaves the model as it was.
     *
     * @param weights values by full weight name
     * @param skipMismatch true to skip weights whose given shape differs instead of failing
     * @return what was loaded, skipped, missing and unused
     */
    public WeightsLoadReport setWeightsByName(Map<String, Tensor> weights, boolean skipMismatch) {
        return guard.exclusive("setWeightsByName", () -> {
            List<Variable> load = new ArrayList<>();
            List<String> loaded = new ArrayList<>();
            List<String> skipped = new ArrayList<>();
            List<String> missing = new ArrayList<>();
            Set<String> used = new java.util.HashSet<>();
            for (Variable v : variables()) {
                Tensor t = weights.get(v.name());
                if (t == null) {
                    missing.add(v.name());
                    continue;
                }
                used.add(v.name());
                if (!t.shape().equals(v.shape())) {
                    String what = v.name() + ": saved " + t.shape() + ", model " + v.shape();
                    if (!skipMismatch) {
                        throw new IllegalArgumentException("weight '" + v.name() + "' of model '" + name
                                + "' has shape " + v.shape() + " but the saved value has shape " + t.shape()
                                + " (skipMismatch skips such weights); nothing was loaded");
                    }
                    skipped.add(what);
                    continue;
                }
                load.add(v);
                loaded.add(v.name());
            }
            for (Variable v : load) {
                v.assign(weights.get(v.name()));
            }
            List<String> unused = weights.keySet().stream().filter(k -> !used.contains(k)).toList();
            return new WeightsLoadReport(loaded, skipped, missing, unused);
        });
    }

    @Override
    public void stopTraining() {
        stopRequested = true;
    }

    @Override
    public boolean stopRequested() {
        return stopRequested;
    }

    void clearStop() {
        stopRequested = false;
    }

    @Override
    public EpochStats lastEpochStats() {
        return lastEpochStats;
    }

    void setLastEpochStats(EpochStats stats) {
        this.lastEpochStats = stats;
    }

    @Override
    public void captureGradientsOfNextStep() {
        gradientRequest = true;
    }

    @Override
    public Map<String, Tensor> capturedGradients() {
        return capturedGradients;
    }

    /** True once after {@link #captureGradientsOfNextStep()}: the step that asks takes the request. */
    boolean takeGradientRequest() {
        boolean r = gradientRequest;
        gradientRequest = false;
        return r;
    }

    void setCapturedGradients(Map<String, Tensor> gradients) {
        this.capturedGradients = Collections.unmodifiableMap(gradients);
    }

    /**
     * The profile of the last fit run with {@link Fit#profile}, or null.
     *
     * @return the profile, or null
     */
    public Profile lastProfile() {
        return lastProfile;
    }

    /** True the first time a warning with this key is asked for on this model, false after. */
    boolean warnOnce(String key) {
        return warned.add(key);
    }

    void setLastProfile(Profile profile) {
        this.lastProfile = profile;
    }

    /**
     * Total number of weight scalars.
     *
     * @return the parameter count, trainable and not
     */
    public long parameterCount() {
        return layers.stream().mapToLong(Layer::parameterCount).sum();
    }

    /** The Keras-style summary table. */
    @Override
    public String summary() {
        return ModelSummary.render(this);
    }

    /** Prints {@link #summary()}. */
    public void printSummary() {
        System.out.print(summary());
    }

    /** Whether the model lists its input layers and connections in the summary (functional models do). */
    boolean isFunctional() {
        return true;
    }

    /** Layer calls in execution order, for the summary. */
    List<SymbolicTensor> calls() {
        return order.stream().filter(t -> !t.isOutputOfSeveral()).toList();
    }
}

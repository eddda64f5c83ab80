package dev.brisk.nn;

import dev.brisk.backend.Kernels;
import dev.brisk.config.Settings;
import dev.brisk.backend.EagerBuffers;
import dev.brisk.backend.KernelTimer;
import dev.brisk.exec.Plan;
import dev.brisk.exec.Planner;
import dev.brisk.graph.Autodiff;
import dev.brisk.graph.Graph;
import dev.brisk.losses.Loss;
import dev.brisk.losses.Reduction;
import dev.brisk.ops.Node;
import dev.brisk.ops.Variable;
import dev.brisk.optimizers.Optimizer;
import dev.brisk.parallel.Reservation;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one train, evaluation or prediction step of a model. Eager: the step's graph is rebuilt and executed op by
 * op every time. Compiled: the whole step (forward, loss, backward, optimiser update) is traced once per kind and
 * shape of the step's data (the batch size, and a sequence length the model leaves open), planned, kept in a
 * {@link PlanCache}, and then replayed with new data.
 */
final class StepRunner {
    /**
     * What a step computes. A data-parallel step is split in two: GRADIENTS (forward, loss and backward, no update)
     * on each replica's shard, then, once the gradients are reduced over the replicas, UPDATE (the optimizer alone,
     * fed the reduced gradients).
     */
    enum Kind { TRAIN, EVAL, PREDICT, GRADIENTS, UPDATE }

    /**
     * A step's outputs; in compiled mode they live in the plan's buffers until the next step. {@code gradients} is
     * set by a GRADIENTS step only, one tensor per trainable variable in the model's order; so are
     * {@code stateVariables} and {@code state}: the variables the step would have written (batch-norm moving
     * statistics) and their new values, which a GRADIENTS step leaves to its caller to write. {@code outputLosses}
     * are the outputs' weighted losses of a model with several outputs (null otherwise).
     */
    record Result(float loss, Tensor[] predictions, Tensor[] gradients, Tensor[] masks, float[] outputLosses,
                  List<Variable> stateVariables, Tensor[] state) {
        Result(float loss, Tensor[] predictions) {
            this(loss, predictions, null, null, null, List.of(), null);
        }

        /** The padding mask of output {@code i} (for its metrics), or null when it has none. */
        Tensor mask(int i) {
            return masks == null ? null : masks[i];
        }
    }

    /** The nodes of one traced step; {@code gradients} are outputs of a GRADIENTS step, inputs of an UPDATE one. */
    private record Traced(Node[] x, Node[] y, Node weights, Node seed, Node hyper, Node loss, Node[] outputLosses,
                          Node[] predictions, Node[] gradients, boolean gradientsAreOutputs, Node[] masks,
                          List<Variable> stateVariables, Node[] state) {
        List<Node> outputs() {
            List<Node> out = new ArrayList<>();
            if (loss != null) {
                out.add(loss);
            }
            if (outputLosses != null) {
                for (Node l : outputLosses) {
                    if (!out.contains(l)) {
                        out.add(l);
                    }
                }
            }
            out.addAll(List.of(predictions));
            if (masks != null) {
                for (Node m : masks) {
                    if (m != null && !out.contains(m)) {
                        out.add(m);
                    }
                }
            }
            if (gradientsAreOutputs && gradients != null) {
                out.addAll(List.of(gradients));
            }
            if (state != null) {
                out.addAll(List.of(state));
            }
            return out;
        }
    }

    private record Compiled(Traced traced, Plan plan) {
    }

    private final Model model;
    private final Kernels kernels;
    private final boolean eager;
    /** Held while a step is traced and planned (or run eagerly), which reads and builds layer state. */
    private final Object traceLock;
    private final int generation;
    /** A plan per kind and shape of the data: inputs, targets and sample weights (an extra input when present). */
    private final PlanCache<Compiled> plans = new PlanCache<>();
    private final EagerBuffers eagerBuffers = new EagerBuffers();
    /**
     * How many of a model's first training steps run one compute thread short of the budget, leaving a core to the
     * JIT compiler ({@code -Dbrisk.jitWarmUpSteps}, default 1; 0 turns it off). The first step runs Vector API
     * code that C2 has not compiled yet, while the compiler works through its queue; on two cores the second
     * compute thread would take the compiler's core, and the first step ends later (docs/benchmark-log.md, "The
     * first training step leaves a core to the JIT").
     * It is always the first step, not a timed guess, so that a seed still gives the same run. Per runner, so a
     * model made again in a warm JVM yields a thread it no longer needs to (one step); when an input pipeline
     * already holds all but one thread of the budget, there is nothing left to yield.
     */
    private static final int JIT_WARM_UP_STEPS = Settings.jitWarmUpSteps();
    private long trainSteps;
    /** {@link Layer#trainabilityVersion()} when this runner's train plans were traced. */
    private long trainabilityVersion = Layer.trainabilityVersion();

    StepRunner(Model model, Kernels kernels, boolean eager, Object traceLock, int generation) {
        this.model = model;
        this.kernels = kernels;
        this.eager = eager;
        this.traceLock = traceLock;
        this.generation = generation;
    }

    /** The {@link StepRunners} generation this runner was made in. */
    int generation() {
        return generation;
    }

    boolean eager() {
        return eager;
    }

    /**
     * The compiled plan for a kind and batch size, the most recently used if several lengths have one, if one was
     * made (for tests and profiles).
     */
    Plan plan(Kind kind, int batchSize) {
        Compiled c = plans.find(kind, batchSize);
        return c == null ? null : c.plan();
    }

    /** How many steps this runner has traced and planned (evicted ones included), for tests of the cache. */
    int traces() {
        return plans.traces();
    }

    /**
     * The input buffer of the compiled training step for batches of {@code batchSize}, for a model with one input:
     * a batch gathered straight into it needs no copy ({@link Plan#feed} sees that it is already there). Null in
     * eager mode, before that step is compiled, and for models with several inputs.
     */
    Tensor trainFeatures(int batchSize) {
        Compiled c = eager ? null : plans.find(Kind.TRAIN, batchSize);
        if (c == null || c.traced().x().length != 1 || !c.plan().hasInput(c.traced().x()[0])) {
            return null;
        }
        return c.plan().input(c.traced().x()[0]);
    }

    Result run(Kind kind, StepBatch batch) {
        return run(kind, batch, null);
    }

    /** Runs one step; a non-null {@code timer} is told the time of every kernel call (a profiled step). */
    Result run(Kind kind, StepBatch batch, KernelTimer timer) {
        // The seed of a train step's random stream (dropout masks) is the model's count of train steps, a state
        // that whole-model files and backups save, so a restored model draws the same masks as the original would.
        // Inference steps draw nothing random.
        float seed = kind == Kind.TRAIN ? (float) (model.nextTrainSeed() & 0xFFFFFF) : 0f;
        return run(kind, batch, timer, seed, null, null);
    }

    /**
     * Runs the GRADIENTS step of one replica's shard with the dropout seed {@code seed} (an integer below 2^24),
     * which the caller chooses so that replicas draw different masks.
     */
    Result shardGradients(StepBatch shard, float seed) {
        return run(Kind.GRADIENTS, shard, null, seed, null, null);
    }

    /** Told each gradient of a GRADIENTS step once it is final, while the rest of the step may still run. */
    @FunctionalInterface
    interface GradientListener {
        /**
         * Gradient {@code index} (of the model's trainable variables, in order) is final: no kernel of this step
         * writes it again. Called on the step's thread, in the order the backward pass finishes them.
         */
        void ready(int index, Tensor gradient);
    }

    /**
     * As {@link #shardGradients(StepBatch, float)}, telling {@code listener} each gradient as soon as the kernel
     * that finishes it has run (compiled plans: the kernel timer's report of that kernel), so that its exchange
     * can overlap the rest of the backward pass. Gradients no kernel of the plan writes last (and every gradient
     * of an eager step) are told when the step ends.
     */
    Result shardGradients(StepBatch shard, float seed, GradientListener listener) {
        return run(Kind.GRADIENTS, shard, null, seed, null, listener);
    }

    /**
     * Runs the UPDATE step: the optimizer applied to {@code gradients}, one tensor per trainable variable in the
     * model's order, with this step's hyper-parameters.
     */
    void update(Tensor[] gradients) {
        run(Kind.UPDATE, null, null, 0f, gradients, null);
    }

    private Result run(Kind kind, StepBatch batch, KernelTimer timer, float seed, Tensor[] gradientsIn,
                       GradientListener listener) {
        Optimizer opt = model.optimizer();
        float[] hyper = kind == Kind.TRAIN || kind == Kind.UPDATE ? opt.hyperParameters() : null;
        if (kind == Kind.TRAIN && model.takeGradientRequest()) {
            model.setCapturedGradients(gradients(batch, seed));
        }
        if (batch != null) {
            checkSampleShapes(batch);
        }
        boolean yieldToJit = kind == Kind.TRAIN && trainSteps++ < JIT_WARM_UP_STEPS && ThreadBudget.threads() > 1;
        if (eager) {
            Result r;
            synchronized (traceLock) {
                r = runEagerly(kind, batch, timer, hyper, seed, yieldToJit, gradientsIn);
            }
            if (listener != null) {
                for (int i = 0; i < r.gradients().length; i++) {
                    listener.ready(i, r.gradients()[i]);
                }
            }
            return r;
        }
        if (kind != Kind.EVAL && kind != Kind.PREDICT) {
            dropStaleTrainPlans();
        }
        boolean weighted = batch != null && batch.weights() != null && kind != Kind.PREDICT;
        Compiled c = plans.find(kind, batch, weighted);
        if (c == null) {
            synchronized (traceLock) {
                Graph g = Graph.symbolic(kernels);
                Traced t = trace(g, kind, batch, hyper, seed, gradientsIn);
                c = new Compiled(t, Planner.compile(g.nodes(), t.outputs(), kernels));
            }
            plans.put(kind, batch, weighted, c);
        }
        Traced t = c.traced();
        Plan plan = c.plan();
        if (kind == Kind.UPDATE) {
            feed(plan, t.gradients(), gradientsIn);
        } else {
            feed(plan, t.x(), batch.x());
        }
        if (kind != Kind.PREDICT && kind != Kind.UPDATE) {
            feed(plan, t.y(), batch.y());
            if (t.weights() != null && plan.hasInput(t.weights())) {
                plan.feed(t.weights(), batch.weights());
            }
        }
        if (t.seed() != null && plan.hasInput(t.seed())) {
            plan.input(t.seed()).set(0, seed);
        }
        if (hyper != null && plan.hasInput(t.hyper())) {
            Tensor h = plan.input(t.hyper());
            for (int i = 0; i < hyper.length; i++) {
                h.set(i, hyper[i]);
            }
        }
        boolean[] told = listener == null ? null : new boolean[t.gradients().length];
        if (listener != null) {
            timer = gradientTimer(t.gradients(), plan, listener, told);
        }
        if (yieldToJit) {
            try (Reservation jit = ThreadBudget.reserve(1)) {
                execute(plan, timer);
            }
        } else {
            execute(plan, timer);
        }
        Tensor[] preds = new Tensor[t.predictions().length];
        for (int i = 0; i < preds.length; i++) {
            preds[i] = plan.output(t.predictions()[i]);
        }
        Tensor[] grads = null;
        Tensor[] state = null;
        if (kind == Kind.GRADIENTS) {
            grads = new Tensor[t.gradients().length];
            for (int i = 0; i < grads.length; i++) {
                grads[i] = plan.output(t.gradients()[i]);
            }
            state = new Tensor[t.state().length];
            for (int i = 0; i < state.length; i++) {
                state[i] = plan.output(t.state()[i]);
            }
            for (int i = 0; told != null && i < told.length; i++) {
                if (!told[i]) {
                    told[i] = true;
                    listener.ready(i, grads[i]);
                }
            }
        }
        Tensor[] masks = null;
        if (t.masks() != null) {
            masks = new Tensor[t.masks().length];
            for (int i = 0; i < masks.length; i++) {
                masks[i] = t.masks()[i] == null ? null : plan.output(t.masks()[i]);
            }
        }
        float[] each = null;
        if (t.outputLosses() != null) {
            each = new float[t.outputLosses().length];
            for (int i = 0; i < each.length; i++) {
                each[i] = plan.output(t.outputLosses()[i]).get(0);
            }
        }
        return new Result(t.loss() == null ? Float.NaN : plan.output(t.loss()).get(0), preds, grads, masks, each,
                t.stateVariables(), state);
    }

    /**
     * Every input of a batch must fit the model's declared sample shape (any size on an axis declared open), checked
     * once here for both modes: without it a batch of another sequence length is refused deep inside (compiled: the
     * plan's input; eager: the first layer's built shape) by messages that do not say what to do. A pipeline of
     * sequences of different lengths pads them to the declared length ({@code paddedBatch(size, length,
     * dropRemainder)}), or the model leaves the length open; the message says both. No allocation unless it throws.
     */
    private void checkSampleShapes(StepBatch batch) {
        List<SymbolicTensor> inputs = model.inputs();
        for (int i = 0; i < batch.x().length && i < inputs.size(); i++) {
            dev.brisk.tensor.Shape expected = inputs.get(i).shape();
            dev.brisk.tensor.Shape got = batch.x()[i].shape();
            boolean same = got.rank() == expected.rank() + 1;
            for (int a = 0; same && a < expected.rank(); a++) {
                same = got.dim(a + 1) == expected.dim(a) || expected.dim(a) == dev.brisk.tensor.Shape.OPEN;
            }
            if (!same) {
                String name = inputs.get(i).layer().name();
                String hint = got.rank() == expected.rank() + 1 && expected.rank() >= 1
                        && expected.dim(0) != dev.brisk.tensor.Shape.OPEN
                        ? "; sequences of different lengths are padded to the declared length with"
                        + " Pipeline.paddedBatch(size, " + expected.dim(0) + ", dropRemainder) (masked with"
                        + " Embedding(maskZero)), one shape for every batch, or the model declares the length open"
                        + " (Shape.OPEN, Keras' None) and takes each batch's own" : "";
                throw new IllegalArgumentException("input '" + name + "' of model '" + model.name()
                        + "' expects data of shape " + Layer.withBatch(expected) + " but a batch has shape "
                        + got + hint);
            }
        }
    }

    /**
     * A kernel timer that tells {@code listener} gradient {@code i} once the instruction of its node has run: an
     * output's buffer is written by its own node's kernel last (outputs stay live to the end of the step, so no
     * later kernel reuses them).
     */
    private static KernelTimer gradientTimer(Node[] gradients, Plan plan, GradientListener listener,
                                             boolean[] told) {
        Map<Node, List<Integer>> index = new IdentityHashMap<>();
        for (int i = 0; i < gradients.length; i++) {
            index.computeIfAbsent(gradients[i], k -> new ArrayList<>()).add(i);
        }
        return (node, start, end) -> {
            List<Integer> which = index.get(node);
            if (which != null) {
                for (int i : which) {
                    if (!told[i]) {
                        told[i] = true;
                        listener.ready(i, plan.output(node));
                    }
                }
            }
        };
    }

    /**
     * A layer frozen or unfrozen since the train plans were traced changes which weights the optimizer updates and
     * how a BatchNormalization normalizes: those plans are dropped and the step traced again. Evaluation and
     * prediction plans do not depend on trainability and stay.
     */
    private void dropStaleTrainPlans() {
        long version = Layer.trainabilityVersion();
        if (version != trainabilityVersion) {
            trainabilityVersion = version;
            plans.removeKinds(k -> k != Kind.EVAL && k != Kind.PREDICT);
        }
    }

    private Result runEagerly(Kind kind, StepBatch batch, KernelTimer timer, float[] hyper, float seed,
                              boolean yieldToJit, Tensor[] gradientsIn) {
        // The previous step's values are no longer read (callers copy what they keep, as in compiled mode).
        eagerBuffers.reclaim();
        Graph g = Graph.eager(kernels, eagerBuffers, timer);
        Traced t;
        if (yieldToJit) {
            try (Reservation jit = ThreadBudget.reserve(1)) {
                t = trace(g, kind, batch, hyper, seed, gradientsIn);
            }
        } else {
            t = trace(g, kind, batch, hyper, seed, gradientsIn);
        }
        Tensor[] preds = new Tensor[t.predictions().length];
        for (int i = 0; i < preds.length; i++) {
            preds[i] = t.predictions()[i].value();
        }
        Tensor[] grads = null;
        Tensor[] state = null;
        if (kind == Kind.GRADIENTS) {
            grads = new Tensor[t.gradients().length];
            for (int i = 0; i < grads.length; i++) {
                grads[i] = t.gradients()[i].value();
            }
            state = new Tensor[t.state().length];
            for (int i = 0; i < state.length; i++) {
                state[i] = t.state()[i].value();
            }
        }
        Tensor[] masks = null;
        if (t.masks() != null) {
            masks = new Tensor[t.masks().length];
            for (int i = 0; i < masks.length; i++) {
                masks[i] = t.masks()[i] == null ? null : t.masks()[i].value();
            }
        }
        float[] each = null;
        if (t.outputLosses() != null) {
            each = new float[t.outputLosses().length];
            for (int i = 0; i < each.length; i++) {
                each[i] = t.outputLosses()[i].value().get(0);
            }
        }
        return new Result(t.loss() == null ? Float.NaN : t.loss().value().get(0), preds, grads, masks, each,
                t.stateVariables(), state);
    }

    /**
     * The gradients this train step is about to apply, by weight name: one eager forward and backward pass on the
     * same batch with the same dropout seed, without the optimizer. Layer state that a training forward pass
     * updates (batch-norm moving statistics) is put back afterwards, so the step itself is unchanged.
     */
    private Map<String, Tensor> gradients(StepBatch batch, float seed) {
        List<Variable> state = model.variables().stream().filter(v -> !v.trainable()).toList();
        List<Tensor> saved = state.stream().map(v -> v.value().copy()).toList();
        try {
            Graph g = Graph.eager(kernels);
            List<SymbolicTensor> inputs = model.inputs();
            Node[] x = new Node[batch.x().length];
            for (int i = 0; i < x.length; i++) {
                x[i] = g.input(inputs.get(i).layer().name(), batch.x()[i]);
            }
            Node[] y = new Node[batch.y().length];
            for (int i = 0; i < y.length; i++) {
                y[i] = g.input("target_" + i, batch.y()[i]);
            }
            Node w = batch.weights() == null ? null : g.input("sample_weight", batch.weights());
            Node seedNode = g.input("seed", Tensor.scalar(seed));
            List<Node> preds = model.forward(g, List.of(x), new CallContext(true, seedNode));
            Node loss = totalLoss(g, y, w, preds, null);
            List<Variable> vars = model.trainableVariables();
            List<Node> grads = Autodiff.gradients(g, loss, vars.stream().map(g::variable).toList());
            Map<String, Tensor> out = new LinkedHashMap<>();
            for (int i = 0; i < vars.size(); i++) {
                out.put(vars.get(i).name(), grads.get(i).value().copy());
            }
            return out;
        } finally {
            for (int i = 0; i < state.size(); i++) {
                state.get(i).assign(saved.get(i));
            }
        }
    }

    private static void execute(Plan plan, KernelTimer timer) {
        if (timer == null) {
            plan.run();
        } else {
            plan.run(timer);
        }
    }

    private static void feed(Plan plan, Node[] nodes, Tensor[] values) {
        for (int i = 0; i < nodes.length; i++) {
            if (plan.hasInput(nodes[i])) {
                plan.feed(nodes[i], values[i]);
            }
        }
    }

    private Traced trace(Graph g, Kind kind, StepBatch batch, float[] hyper, float seed, Tensor[] gradientsIn) {
        if (kind == Kind.UPDATE) {
            return traceUpdate(g, hyper, gradientsIn);
        }
        List<SymbolicTensor> inputs = model.inputs();
        Node[] x = new Node[batch.x().length];
        for (int i = 0; i < x.length; i++) {
            x[i] = g.input(inputs.get(i).layer().name(), batch.x()[i]);
        }
        Node[] y = new Node[kind == Kind.PREDICT ? 0 : batch.y().length];
        boolean training = kind == Kind.TRAIN || kind == Kind.GRADIENTS;
        for (int i = 0; i < y.length; i++) {
            y[i] = g.input("target_" + i, batch.y()[i]);
        }
        Node weights = kind == Kind.PREDICT || batch.weights() == null ? null
                : g.input("sample_weight", batch.weights());
        Node seedNode = g.input("seed", Tensor.scalar(seed));
        Node hyperNode = hyper == null ? null : g.input("hyper", Tensor.of(hyper, hyper.length));
        if (kind == Kind.GRADIENTS) {
            // Replicas share the variables: each one's new state becomes an output, written by DataParallelStep.
            g.deferAssigns();
        }
        List<Node> preds = model.forward(g, List.of(x), new CallContext(training, seedNode));
        Node loss = null;
        Node[] outputLosses = kind != Kind.PREDICT && preds.size() > 1 ? new Node[preds.size()] : null;
        if (kind != Kind.PREDICT) {
            loss = g.inScope("loss", () -> totalLoss(g, y, weights, preds, outputLosses));
        }
        if (kind == Kind.TRAIN) {
            Node l = loss;
            g.inScope("optimizer", () -> {
                List<Variable> vars = model.trainableVariables();
                List<Node> varNodes = new ArrayList<>(vars.size());
                for (Variable v : vars) {
                    varNodes.add(g.variable(v));
                }
                List<Node> grads = Autodiff.gradients(g, l, varNodes);
                model.optimizer().apply(g, vars, grads, hyperNode);
                return null;
            });
        }
        Node[] gradients = null;
        if (kind == Kind.GRADIENTS) {
            Node l = loss;
            gradients = g.inScope("gradients", () -> {
                List<Node> varNodes = new ArrayList<>();
                for (Variable v : model.trainableVariables()) {
                    varNodes.add(g.variable(v));
                }
                return Autodiff.gradients(g, l, varNodes).toArray(new Node[0]);
            });
        }
        List<Variable> stateVariables = new ArrayList<>();
        List<Node> state = new ArrayList<>();
        for (Map.Entry<Variable, Node> a : g.deferredAssigns()) {
            stateVariables.add(a.getKey());
            state.add(a.getValue());
        }
        return new Traced(x, y, weights, seedNode, hyperNode, loss, outputLosses, preds.toArray(new Node[0]),
                gradients, true, kind == Kind.PREDICT ? null : masksOf(g, preds), List.copyOf(stateVariables),
                kind == Kind.GRADIENTS ? state.toArray(new Node[0]) : null);
    }

    /** The optimizer alone: one INPUT per trainable variable's gradient, then the fused update ops. */
    private Traced traceUpdate(Graph g, float[] hyper, Tensor[] gradientsIn) {
        List<Variable> vars = model.trainableVariables();
        Node hyperNode = g.input("hyper", Tensor.of(hyper, hyper.length));
        Node[] grads = new Node[vars.size()];
        for (int i = 0; i < grads.length; i++) {
            grads[i] = g.input("gradient/" + vars.get(i).name(), gradientsIn[i]);
        }
        g.inScope("optimizer", () -> {
            model.optimizer().apply(g, vars, List.of(grads), hyperNode);
            return null;
        });
        return new Traced(new Node[0], new Node[0], null, null, hyperNode, null, null, new Node[0], grads, false,
                null, List.of(), null);
    }

    /** The outputs' padding masks, which their metrics read (null entries for outputs without one), or null. */
    private static Node[] masksOf(Graph g, List<Node> preds) {
        Node[] masks = new Node[preds.size()];
        boolean any = false;
        for (int i = 0; i < masks.length; i++) {
            masks[i] = g.maskOf(preds.get(i));
            any |= masks[i] != null;
        }
        return any ? masks : null;
    }

    /** Output {@code i}'s sample weights: the array for all outputs, or column {@code i} of one per output. */
    private static Node outputWeights(Graph g, Node weights, int i) {
        if (weights.shape().rank() < 2) {
            return weights;
        }
        int n = weights.shape().dim(0);
        return g.reshape(g.slice(weights, 1, i, 1), dev.brisk.tensor.Shape.of(n));
    }

    /**
     * Refuses an output's loss that is not one number, such as a loss with {@code Reduction.NONE}: the gradient and
     * the logged loss need a scalar. (Keras' JAX and PyTorch backends refuse it as well; its TensorFlow backend
     * differentiates the values' sum while logging their mean, so no one choice here would match all three.)
     */
    private void requireScalar(Loss loss, int output, Node l) {
        if (loss.reduction() == Reduction.NONE || l.shape().size() != 1) {
            throw new IllegalArgumentException("model '" + model.name() + "': the loss " + loss.name() + " of output "
                    + output + " gives values of shape " + l.shape() + ", not one number (reduction '"
                    + loss.reduction().kerasName() + "'); fit and evaluate need a reduced loss: use the default"
                    + " reduction, \"sum\" or \"mean_with_sample_weight\"");
        }
    }

    /**
     * The weighted sum of the outputs' losses plus the layers' regularization; each output's weighted loss goes into
     * {@code outputLosses} when it is not null. {@code weights} (or null) are the samples' weights.
     */
    private Node totalLoss(Graph g, Node[] y, Node weights, List<Node> preds, Node[] outputLosses) {
        List<Loss> losses = model.losses();
        Node total = null;
        for (int i = 0; i < preds.size(); i++) {
            // An output carrying a padding mask is averaged over its real steps only, as Keras does.
            Node mask = g.maskOf(preds.get(i));
            Node l;
            if (weights != null) {
                l = losses.get(i).computeWeighted(g, y[i], preds.get(i), mask, outputWeights(g, weights, i));
            } else {
                l = mask == null ? losses.get(i).compute(g, y[i], preds.get(i))
                        : losses.get(i).computeMasked(g, y[i], preds.get(i), mask);
            }
            requireScalar(losses.get(i), i, l);
            float w = model.lossWeight(i);
            if (w != 1f) {
                l = g.scale(l, w);
            }
            if (outputLosses != null) {
                outputLosses[i] = l;
            }
            total = total == null ? l : g.add(total, l);
        }
        for (Layer layer : model.layers()) {
            Node r = layer.regularizationLoss(g);
            if (r != null) {
                total = g.add(total, r);
            }
        }
        return total;
    }
}

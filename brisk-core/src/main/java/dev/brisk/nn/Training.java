package dev.brisk.nn;

import dev.brisk.callbacks.Callback;
import dev.brisk.callbacks.EpochStats;
import dev.brisk.callbacks.History;
import dev.brisk.callbacks.ProgressBar;
import dev.brisk.callbacks.TrainingParams;
import dev.brisk.losses.Loss;
import dev.brisk.metrics.Metric;
import dev.brisk.metrics.MetricSpec;
import dev.brisk.metrics.WeightedMetric;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.profile.CpuTime;
import dev.brisk.profile.Phase;
import dev.brisk.profile.Profile;
import dev.brisk.profile.ProfileWindow;
import dev.brisk.profile.Profiler;
import dev.brisk.profile.StepTimeline;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The loops behind fit, evaluate and predict: batching, steps, metrics, callbacks and timing. */
final class Training {
    private final Model model;

    Training(Model model) {
        this.model = model;
    }

    History fit(BatchSource train, Fit options) {
        model.build(train.inputShapes());
        requireSamples(train, "fit");
        checkTargets(train);
        checkValidationData(options);
        ClassWeights classWeights = ClassWeights.of(options.classWeight, model, options.sampleWeight != null);
        warnIfProbabilitiesReadAsLogits();
        Distribution distribution = options.distribution;
        if (distribution.mode() == Distribution.Mode.SINGLE) {
            StepRunner runner = model.acquireRunner();
            try {
                return fit(train, options, runner, null, classWeights);
            } finally {
                model.releaseRunner(runner);
            }
        }
        List<StepRunner> runners = new ArrayList<>();
        try {
            int local = distribution.mode() == Distribution.Mode.REPLICAS ? distribution.replicaCount() : 1;
            for (int k = 0; k < local; k++) {
                runners.add(model.acquireRunner());
            }
            try (DataParallelStep step = new DataParallelStep(model, distribution, runners)) {
                return fit(train, options, runners.get(0), step, classWeights);
            }
        } finally {
            runners.forEach(model::releaseRunner);
        }
    }

    /**
     * The batch size this process draws from its data: the global batch, or a worker's part of it (the parts of
     * {@link DataParallelStep#shardStart}).
     */
    private static int localBatchSize(Fit options) {
        Distribution d = options.distribution;
        if (d.mode() != Distribution.Mode.WORKER) {
            return options.batchSize;
        }
        int n = d.ring().size();
        int r = d.ring().rank();
        int size = DataParallelStep.shardStart(options.batchSize, n, r + 1) - DataParallelStep.shardStart(
                options.batchSize, n, r);
        if (size == 0) {
            throw new IllegalArgumentException("the global batch size " + options.batchSize + " is smaller than the "
                    + n + " workers that share it");
        }
        return size;
    }

    private History fit(BatchSource train, Fit options, StepRunner runner, DataParallelStep parallel,
                        ClassWeights classWeights) {
        List<List<Metric>> metrics = createMetrics();
        LossLogs loss = new LossLogs(model);
        History history = new History();
        // As in Keras, History and the progress bar run after the user's callbacks, so they see what those add
        // to the logs (ReduceLROnPlateau's "learning_rate").
        List<Callback> callbacks = new ArrayList<>(options.callbacks);
        callbacks.add(history);
        if (options.verbose > 0) {
            callbacks.add(new ProgressBar());
        }
        int steps = train.steps(localBatchSize(options));
        if (parallel != null) {
            steps = parallel.agreeOnSteps(steps);
        }
        TrainingParams params = new TrainingParams(options.epochs, steps, train.size(), options.verbose);
        for (Callback cb : callbacks) {
            cb.setModel(model);
            cb.setParams(params);
        }
        int threads = ThreadBudget.resolve().threads();
        if (options.verbose > 0) {
            System.out.println("brisk: thread budget " + ThreadBudget.resolve() + ", kernels "
                    + model.kernels().name() + ", " + (runner.eager() ? "eager" : "compiled") + " execution"
                    + (parallel == null ? "" : ", " + options.distribution + ", global batch " + options.batchSize));
        }
        Profiler profiler = profiler(options, steps, threads, runner.eager());
        StepTimeline timeline = new StepTimeline(profiler);
        long seed = options.seed != null ? options.seed : RandomSeed.next();
        model.clearStop();
        Map<String, Double> none = new LinkedHashMap<>();
        try {
            callbacks.forEach(cb -> cb.onTrainBegin(none));
            trainEpochs(train, options, runner, parallel, steps, metrics, loss, callbacks, timeline, seed, threads,
                    classWeights);
        } catch (RuntimeException | Error e) {
            failed(callbacks, e);
            throw e;
        }
        if (profiler != null) {
            finishProfile(profiler.finish(), options);
        }
        callbacks.forEach(cb -> cb.onTrainEnd(new LinkedHashMap<>()));
        return history;
    }

    /** Tells every callback that training stopped with {@code error}; what they throw is added to it. */
    private static void failed(List<Callback> callbacks, Throwable error) {
        for (Callback cb : callbacks) {
            try {
                cb.onTrainFailed(error);
            } catch (RuntimeException | Error suppressed) {
                error.addSuppressed(suppressed);
            }
        }
    }

    private void trainEpochs(BatchSource train, Fit options, StepRunner runner, DataParallelStep parallel,
                             int steps, List<List<Metric>> metrics, LossLogs loss, List<Callback> callbacks,
                             StepTimeline timeline, long seed, int threads, ClassWeights classWeights) {
        // A backup restored in onTrainBegin (BackupAndRestore) says where the interrupted run stopped; otherwise
        // Fit.initialEpoch / resumeAt.
        int[] resume = model.takeResume();
        int startEpoch = resume != null ? resume[0] : options.initialEpoch;
        int startStep = resume != null ? resume[1] : options.initialStep;
        int globalStep = startEpoch * steps + startStep;
        for (int epoch = startEpoch; epoch < options.epochs && !model.stopRequested(); epoch++) {
            int e = epoch;
            callbacks.forEach(cb -> cb.onEpochBegin(e, new LinkedHashMap<>()));
            loss.reset();
            metrics.forEach(list -> list.forEach(Metric::reset));
            long wallStart = System.nanoTime();
            long cpuStart = CpuTime.processNanos();
            timeline.takeInputWaitNanos();
            long samples = 0;
            int batchIndex = 0;
            Map<String, Double> logs = new LinkedHashMap<>();
            // Gathered batches go straight into the compiled step's input buffer, once it exists (not when
            // replicas split them).
            Iterator<StepBatch> batches = parallel == null
                    ? train.batches(options.batchSize, options.shuffle, seed + epoch, runner::trainFeatures).iterator()
                    : train.batches(localBatchSize(options), options.shuffle, seed + epoch).iterator();
            if (epoch == startEpoch) {
                // Resuming: the epoch's order is the interrupted run's (seeded per epoch); skip what it finished.
                for (int k = 0; k < startStep && batches.hasNext(); k++) {
                    batches.next();
                    batchIndex++;
                }
            }
            while (true) {
                timeline.beginStep(globalStep + 1);
                boolean more = batches.hasNext();
                // A worker out of data keeps stepping (with an empty shard) until every worker is done.
                if (!more && (parallel == null || options.distribution.mode() != Distribution.Mode.WORKER
                        || batchIndex >= steps)) {
                    break;
                }
                StepBatch batch = more ? classWeights.apply(batches.next()) : null;
                globalStep++;
                timeline.batchReady();
                int b = batchIndex;
                callbacks.forEach(cb -> cb.onTrainBatchBegin(b, logs));
                timeline.phaseEnd(Phase.CALLBACKS);
                if (parallel == null) {
                    StepRunner.Result r = runner.run(StepRunner.Kind.TRAIN, batch, timeline.kernelTimer());
                    timeline.phaseEnd(Phase.COMPUTE);
                    model.finishOptimizerStep();
                    loss.add(r, batch.size());
                    update(metrics, batch, r);
                } else {
                    float[] lossAndSize = parallel.run(batch, metrics);
                    timeline.phaseEnd(Phase.COMPUTE);
                    loss.total().add(lossAndSize[0], lossAndSize[1]);
                }
                samples += batch == null ? 0 : batch.size();
                logs.clear();
                collect(logs, "", loss, metrics);
                timeline.phaseEnd(Phase.METRICS);
                callbacks.forEach(cb -> cb.onTrainBatchEnd(b, logs));
                timeline.phaseEnd(Phase.CALLBACKS);
                timeline.endStep();
                batchIndex++;
                if (model.stopRequested()) {
                    break;
                }
            }
            EpochStats stats = new EpochStats(samples, (System.nanoTime() - wallStart) / 1e9,
                    (CpuTime.processNanos() - cpuStart) / 1e9, timeline.takeInputWaitNanos() / 1e9, threads);
            model.setLastEpochStats(stats);
            Map<String, Double> epochLogs = new LinkedHashMap<>(logs);
            if (parallel != null) {
                // The reduction's time per step, as the ring's cost model needs it (averaged over the workers).
                epochLogs.put("allreduce_ms", parallel.takeReduceMillisPerStep());
                // The epoch's wall time: a worker's own samples/s is not the job's.
                epochLogs.put("epoch_s", stats.wallSeconds());
                parallel.averageLogs(epochLogs, samples);
            }
            BatchSource validation = validationSource(options);
            if (validation != null) {
                if (options.validationPipeline != null) {
                    checkValidation(validation);
                }
                evaluate(validation, options.batchSize, runner).forEach((k, v) -> epochLogs.put("val_" + k, v));
            }
            epochLogs.put("cpu_util", stats.cpuUtilisation());
            epochLogs.put("input_wait", stats.inputWaitShare());
            callbacks.forEach(cb -> cb.onEpochEnd(e, epochLogs));
        }
    }

    /** The profiler of this fit, or null when it profiles nothing; a window past the fit's end is refused. */
    private static Profiler profiler(Fit options, int stepsPerEpoch, int threads, boolean eager) {
        if (!options.profiled) {
            return null;
        }
        int total = stepsPerEpoch * options.epochs;
        ProfileWindow window = options.profileSteps != null ? options.profileSteps
                : ProfileWindow.afterWarmup(total);
        if (window.first() > total) {
            throw new IllegalArgumentException("profile steps " + window + " start after the last step of this fit ("
                    + options.epochs + " epoch(s) of " + stepsPerEpoch + " steps = " + total + " steps)");
        }
        return new Profiler(window, threads, eager ? "eager" : "compiled");
    }

    private void finishProfile(Profile profile, Fit options) {
        model.setLastProfile(profile);
        if (options.profileTrace != null) {
            try {
                profile.writeChromeTrace(options.profileTrace);
            } catch (IOException e) {
                throw new UncheckedIOException("could not write the profile trace " + options.profileTrace, e);
            }
            if (options.verbose > 0) {
                System.out.println("brisk: Chrome trace of " + profile.steps().size() + " profiled step(s) written to "
                        + options.profileTrace + " (open it in https://ui.perfetto.dev or chrome://tracing)");
            }
        }
        if (options.verbose > 0) {
            System.out.print(profile.summary());
        }
    }

    /**
     * Validation arrays and datasets are checked against the model's inputs and outputs before the first step, so
     * that a mismatch fails at once and says it is the validation data, not after a whole epoch. A validation
     * pipeline is checked when its first batch is read, at the end of the first epoch.
     */
    private void checkValidationData(Fit options) {
        if (options.validationPipeline == null) {
            BatchSource validation = validationSource(options);
            if (validation != null) {
                checkValidation(validation);
            }
        }
    }

    private void checkValidation(BatchSource validation) {
        try {
            model.build(validation.inputShapes());
            requireSamples(validation, "validation");
            checkTargets(validation);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("validation data of fit on model '" + model.name() + "': "
                    + e.getMessage(), e);
        }
    }

    private BatchSource validationSource(Fit options) {
        if (options.validationPipeline != null) {
            return new PipelineBatchSource(model, options.validationPipeline, 0, true, "validation");
        }
        if (options.validationData != null) {
            return BatchSource.of(options.validationData);
        }
        if (options.validationX != null) {
            Tensor[] perOutput = options.validationWeightsPerOutput;
            Tensor weights = perOutput == null ? options.validationWeights
                    : OutputWeights.flatForOneOutput(OutputWeights.byPosition(model, perOutput));
            return BatchSource.of(options.validationX, options.validationY, weights);
        }
        return null;
    }

    Map<String, Double> evaluate(BatchSource data, int batchSize) {
        model.build(data.inputShapes());
        requireSamples(data, "evaluate");
        checkTargets(data);
        StepRunner runner = model.acquireRunner();
        try {
            return evaluate(data, batchSize, runner);
        } finally {
            model.releaseRunner(runner);
        }
    }

    private Map<String, Double> evaluate(BatchSource data, int batchSize, StepRunner runner) {
        List<List<Metric>> metrics = createMetrics();
        LossLogs loss = new LossLogs(model);
        for (StepBatch batch : data.batches(batchSize, false, 0)) {
            StepRunner.Result r = runner.run(StepRunner.Kind.EVAL, batch);
            loss.add(r, batch.size());
            update(metrics, batch, r);
        }
        Map<String, Double> logs = new LinkedHashMap<>();
        collect(logs, "", loss, metrics);
        return logs;
    }

    Tensor[] predict(BatchSource data, int batchSize) {
        model.build(data.inputShapes());
        StepRunner runner = model.acquireRunner();
        try {
            return predict(data, batchSize, runner);
        } finally {
            model.releaseRunner(runner);
        }
    }

    private Tensor[] predict(BatchSource data, int batchSize, StepRunner runner) {
        int outputs = model.outputs().size();
        PredictionRows[] rows = new PredictionRows[outputs];
        for (int i = 0; i < outputs; i++) {
            rows[i] = new PredictionRows(data.size(), model.outputs().get(i).shape());
        }
        for (StepBatch batch : data.batches(batchSize, false, 0)) {
            StepRunner.Result r = runner.run(StepRunner.Kind.PREDICT, batch);
            for (int i = 0; i < outputs; i++) {
                rows[i].add(r.predictions()[i]);
            }
        }
        Tensor[] result = new Tensor[outputs];
        for (int i = 0; i < outputs; i++) {
            result[i] = rows[i].toTensor();
        }
        return result;
    }

    /**
     * A loss that takes logits after an output that ends in softmax or sigmoid computes the loss of probabilities
     * as if they were scores: training goes on, poorly, without an error. Keras warns; so do we, once per model.
     */
    private void warnIfProbabilitiesReadAsLogits() {
        List<Loss> losses = model.losses();
        for (int i = 0; i < losses.size(); i++) {
            Layer out = model.outputs().get(i).layer();
            Activation a = out.outputActivation();
            if (losses.get(i).fromLogits() && (a == Activation.SOFTMAX || a == Activation.SIGMOID)
                    && model.warnOnce("logits:" + i)) {
                System.err.println("brisk: warning: loss " + losses.get(i).name() + " of model '" + model.name()
                        + "' takes logits (fromLogits=true), but output layer '" + out.name() + "' ends in "
                        + a.kerasName() + ", so it gives probabilities, not logits; was this intended?");
            }
        }
    }

    /** Keras refuses empty data (its logs would be empty); so do we, instead of reporting a loss of 0. */
    private static void requireSamples(BatchSource data, String what) {
        if (data.size() == 0) {
            throw new IllegalArgumentException(what + " needs at least one sample, but the data is empty");
        }
    }

    private List<List<Metric>> createMetrics() {
        List<List<Metric>> perOutput = new ArrayList<>();
        List<Loss> losses = model.losses();
        for (int i = 0; i < model.outputs().size(); i++) {
            MetricSpec.Target target = targetKind(losses.get(i), model.outputs().get(i).shape());
            List<Metric> list = new ArrayList<>();
            java.util.Set<String> unweighted = new java.util.HashSet<>();
            for (MetricSpec spec : model.metricSpecs(i)) {
                Metric m = spec.create(target);
                list.add(m);
                if (!(m instanceof WeightedMetric)) {
                    unweighted.add(m.name());
                }
            }
            // Keras 3 logs a weighted metric as weighted_<name> when an unweighted one of the output has its name.
            for (int j = 0; j < list.size(); j++) {
                if (list.get(j) instanceof WeightedMetric w && unweighted.contains(w.name())) {
                    list.set(j, w.prefixed());
                }
            }
            perOutput.add(list);
        }
        return perOutput;
    }

    private static MetricSpec.Target targetKind(Loss loss, Shape outputShape) {
        if (loss.sparseTargets()) {
            return MetricSpec.Target.SPARSE_LABELS;
        }
        if (loss.name().startsWith("binary") || !outputShape.isOpen() && outputShape.size() == 1) {
            return MetricSpec.Target.BINARY;
        }
        return MetricSpec.Target.ONE_HOT;
    }

    private static void update(List<List<Metric>> metrics, StepBatch batch, StepRunner.Result r) {
        for (int i = 0; i < metrics.size(); i++) {
            for (Metric m : metrics.get(i)) {
                m.update(batch.y()[i], r.predictions()[i], r.mask(i), weightsFor(m, batch.weights(), i));
            }
        }
    }

    /**
     * Output {@code output}'s sample weights for a weighted metric (Keras' {@code weighted_metrics}), null for the
     * others.
     */
    static Tensor weightsFor(Metric m, Tensor weights, int output) {
        return m instanceof WeightedMetric ? OutputWeights.column(weights, output) : null;
    }

    private void collect(Map<String, Double> logs, String prefix, LossLogs loss, List<List<Metric>> metrics) {
        loss.collect(logs, prefix);
        for (int i = 0; i < metrics.size(); i++) {
            String outputPrefix = metrics.size() > 1 ? model.outputs().get(i).layer().name() + "_" : "";
            for (Metric m : metrics.get(i)) {
                logs.put(prefix + outputPrefix + m.name(), m.result());
            }
        }
    }

    /** Class-index targets must be integers in [0, classes): checked once, before any step runs. */
    private void checkTargets(BatchSource data) {
        Tensor[] targets = data.allTargets();
        if (targets == null) {
            return;
        }
        if (targets.length != model.outputs().size()) {
            throw new IllegalArgumentException("model '" + model.name() + "' has " + model.outputs().size()
                    + " output(s) but got " + targets.length + " target array(s)");
        }
        List<Loss> losses = model.losses();
        for (int i = 0; i < targets.length && i < losses.size(); i++) {
            if (!losses.get(i).sparseTargets()) {
                continue;
            }
            Shape outShape = model.outputs().get(i).shape();
            int classes = outShape.dim(-1);
            Tensor t = targets[i];
            int samples = t.shape().rank() == 0 ? 0 : t.shape().dim(0);
            // An open output axis (a sequence length) takes the data's own; the rows' count is checked per step.
            if (samples > 0 && !outShape.isOpen() && t.size() / samples != outShape.size() / classes) {
                throw new IllegalArgumentException("output '" + model.outputs().get(i).layer().name() + "' uses "
                        + losses.get(i).name() + ", which takes one class index per prediction, but the targets "
                        + "have shape " + t.shape() + " for predictions of shape " + Layer.withBatch(outShape)
                        + " (one-hot targets need categorical_crossentropy)");
            }
            for (int k = 0; k < t.size(); k++) {
                float v = t.get(k);
                if (Float.isFinite(v) && v != Math.rint(v)) {
                    throw new IllegalArgumentException("label " + v + " at index " + k + " is not an integer class "
                            + "index: output '" + model.outputs().get(i).layer().name() + "' has " + classes
                            + " classes");
                }
                if (!(v >= 0 && v < classes)) {
                    throw new IllegalArgumentException("label " + v + " at index " + k + " is outside [0, "
                            + classes + "): output '" + model.outputs().get(i).layer().name() + "' has " + classes
                            + " classes");
                }
            }
        }
    }
}

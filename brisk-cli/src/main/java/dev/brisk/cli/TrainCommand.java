package dev.brisk.cli;

import static dev.brisk.cli.OptionRules.atLeast;
import static dev.brisk.cli.OptionRules.notDirectory;
import static dev.brisk.cli.OptionRules.refuse;

import dev.brisk.callbacks.Callback;
import dev.brisk.callbacks.EpochStats;
import dev.brisk.callbacks.History;
import dev.brisk.callbacks.TensorBoard;
import dev.brisk.cli.Workloads.Workload;
import dev.brisk.data.FashionMnist;
import dev.brisk.data.Fortunes;
import dev.brisk.data.InMemoryDataset;
import dev.brisk.data.TrainTestSplit;
import dev.brisk.data.UnpackedCache;
import dev.brisk.io.tensorboard.ProfileTraces;
import dev.brisk.nn.Distribution;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.onnx.OnnxExport;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.plot.HistoryPlot;
import dev.brisk.profile.ProfileWindow;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.cli.Options;

/**
 * {@code brisk train --workload w1|w2|z1|z2|z3|z4}: trains a reference workload on Fashion-MNIST, evaluates it on
 * the test set and ends with one {@link ResultLine} (its test accuracy, or its test loss for a workload without one).
 */
public final class TrainCommand extends Subcommand {
    private static final List<String> DESCRIPTION = List.of(
            "Trains a reference workload (docs/workloads.md) on Fashion-MNIST, evaluates it on the test set"
                    + " and prints one RESULT line (test_acc=, or test_loss= for the autoencoder z3).",
            "  w1: MLP 784-512-512-10 on flattened images (default 5 epochs)",
            "  w2: CNN conv32-pool-conv64-pool-dense128-dense10 (default 3 epochs)",
            "  z1: ResNet-style, 3x3 stem and three stages of two residual blocks, 16-32-64 channels (default 2)",
            "  z2: VGG-style, (conv32-bn-relu)x2-pool-(conv64-bn-relu)x2-pool-256-dropout-10 (default 2 epochs)",
            "  z3: autoencoder 784-256-64-256-784, binary cross-entropy reconstruction (default 5 epochs)",
            "  z4: wide MLP, 4 x (dense1024-bn-relu-dropout0.2) then 10, on flattened images (default 5 epochs)",
            "  w3: LSTM(128) over 28 rows of 28 pixels, then 10 (default 3 epochs)",
            "  w4: character-level transformer language model on the fortunes text (--text), 2 blocks of causal"
                    + " attention 4x32 and feed-forward 512; reports held-out bits per character, tokens/s and a"
                    + " generated sample (default " + Workloads.TEXT_EPOCHS + " epochs, batch "
                    + Workloads.TEXT_BATCH_SIZE + ")",
            "  w4-gru: the same language model with GRU(256) in place of the transformer blocks",
            "Or trains your own model on your own data: --model MODEL.json (Keras 3's config.json schema, as"
                    + " model.to_json() writes it) --data DATA (a CSV file with --label COLUMN, numbers or text"
                    + " classes, which are numbered in sorted order; an NPY or IDX"
                    + " features file with --label LABELS_FILE, or a directory of images, one sub-folder per"
                    + " class); holds out --validation-split of the rows (Keras:"
                    + " the last ones) and reports on them (test_acc= with an accuracy metric, else test_loss=).");
    private static final Options OPTIONS = CliOptions.of(
            CliOptions.valued("workload", "ID", "Workload to train: " + Workload.validIds() + "."),
            CliOptions.valued("model", "MODEL.json", "Train this model instead of a workload: a Keras 3 model"
                    + " description (config.json schema; compiled as its compile_config says, else by --loss)."),
            CliOptions.valued("label", "COLUMN|FILE", "With --model: the label column of a CSV --data, or the"
                    + " labels file (NPY or IDX) of an NPY or IDX --data."),
            CliOptions.valued("fill-value", "X", "With a CSV --data: read an empty feature cell (or one of"
                    + " --missing) as X instead of refusing the row."),
            CliOptions.valued("missing", "A,B", "With --fill-value: more cell texts that mean missing (e.g. NA,?)."),
            CliOptions.valued("indicate-missing", "A,B", "With --fill-value: add a feature COLUMN_missing for each"
                    + " of these CSV columns, 1 where the cell was missing (and filled), else 0, after the other"
                    + " features (scikit-learn's MissingIndicator), so the model can tell a filled value from a real"
                    + " one."),
            CliOptions.valued("lookup-column", "COLUMN[:one_hot]", "With a CSV --data: a text feature column looked"
                    + " up in a vocabulary adapted from the file (Keras' StringLookup after adapt: the most frequent"
                    + " value first); its id is one feature (0 a missing cell, 1 an unknown value), or with :one_hot"
                    + " one feature per id. Repeat the option or separate columns by commas."),
            CliOptions.valued("hash-column", "COLUMN:BINS[:one_hot]", "With a CSV --data: a text feature column"
                    + " hashed into BINS bins (Keras' Hashing, FarmHash); its bin is one feature, or with :one_hot one"
                    + " feature per bin. With --fill-value a missing cell has bin 0 alone (Keras' mask_value)."),
            CliOptions.flag("normalize", "With --model: standardize every feature by the training rows' mean and"
                    + " variance (Keras' Normalization adapted on the training split) before training."),
            CliOptions.valued("validation-split", "F", "With --model: the fraction of rows, taken from the end"
                    + " before shuffling as Keras does, to validate and report on (default: 0.2)."),
            CliOptions.valued("loss", "NAME", "With --model, for a description without compile_config: the loss's"
                    + " Keras name (e.g. mean_squared_error, sparse_categorical_crossentropy)."),
            CliOptions.valued("optimizer", "NAME", "With --loss: adam, sgd, rmsprop or adamw (default: adam)."),
            CliOptions.valued("learning-rate", "LR", "With --loss: the learning rate (default: 0.001)."),
            CliOptions.valued("metrics", "A,B", "With --loss: metric names (e.g. accuracy); default: none."),
            CliOptions.valued("patience", "N", "With --model: stop when val_loss has not improved for N epochs and"
                    + " keep the best weights (Keras' EarlyStopping)."),
            CliOptions.valued("epochs", "N", "Epochs to train (default: the workload's, listed above)."),
            CliOptions.valued("threads", "N",
                    "Thread budget (default: -Dbrisk.threads, BRISK_THREADS, or the available processors, less one"
                            + " from " + ThreadBudget.SPARE_CORE_FROM + " up)."),
            CliOptions.flag("eager", "Run steps op by op instead of as a compiled plan (for debugging)."),
            CliOptions.valued("data", "DIR|FILE", "Directory of the four Fashion-MNIST IDX files (default: "
                    + FashionMnist.DEFAULT_DIR + "); with --model, a CSV, NPY or IDX file, or a directory of images with"
                    + " one sub-folder per class."),
            CliOptions.valued("text", "DIR", "Directory of the fortune files of w4 and w4-gru (default: "
                    + Fortunes.DEFAULT_DIR + ")."),
            CliOptions.valued("window-stride", "N", "w4: characters between the starts of training windows"
                    + " (default: " + Workloads.TRAIN_STRIDE + "; " + Workloads.WINDOW + " for windows that do not"
                    + " overlap)."),
            CliOptions.valued("batch-size", "N", "Batch size (default: " + Workloads.BATCH_SIZE + ", "
                    + Workloads.TEXT_BATCH_SIZE + " for w4)."),
            CliOptions.valued("seed", "S", "Random seed for weights and shuffling (default: from the clock)."),
            CliOptions.valued("limit", "N",
                    "Train on the first N training samples only (quick checks); the test set is unchanged."),
            CliOptions.flag("pipeline", "Feed training through the input pipeline (raw IDX pixels shuffled, scaled"
                    + " on parallel workers, batched and prefetched) instead of from arrays; same batches for the same"
                    + " seed."),
            CliOptions.valued("profile", "FILE", "Profile a few training steps after warm-up: write their Chrome"
                    + " trace (Perfetto) to FILE and print where the time went."),
            CliOptions.valued("profile-steps", "FIRST-LAST", "Steps to profile, counted from 1 over the run"
                    + " (default: 51-55, or the last 5 of a shorter run)."),
            CliOptions.valued("verbose", "0|1|2", "0 silent, 1 progress bar, 2 one line per epoch (default: 1)."),
            CliOptions.valued("tensorboard", "DIR", "Write TensorBoard event files to DIR/train and DIR/validation"
                    + " (view them with tensorboard --logdir DIR)."),
            CliOptions.valued("histogram-freq", "N", "With --tensorboard: weight and gradient histograms every N"
                    + " epochs, 0 for none (default: 1)."),
            CliOptions.valued("update-freq", "N", "With --tensorboard: loss and metrics every N training steps as"
                    + " well as every epoch, 0 for every epoch only (default: 100)."),
            CliOptions.valued("save", "FILE.keras", "After training, save the whole model (architecture, weights,"
                    + " optimizer state) as a Keras 3 .keras file, for brisk evaluate, predict and summary."),
            CliOptions.flag("gemm-peak", "After training, measure the gemm's GFLOP/s in this JVM at this run's thread"
                    + " budget (a 1024 square and the MLP's 128x512x784, about 2 s) and add it to the TIMING line;"
                    + " brisk bench divides the run's useful GFLOP/s by it."),
            CliOptions.valued("plot", "PNG",
                    "Save the training and validation curves (loss and accuracy by epoch) as a PNG image."),
            CliOptions.valued("replicas", "N", "Data-parallel replicas in this JVM, each computing its share of every"
                    + " batch on one thread; the gradients are summed in memory (docs/distributed.md)."),
            CliOptions.flag("overlap", "With --replicas or --master: exchange the gradients in buckets while the"
                    + " backward pass runs (off by default; docs/distributed.md)."),
            CliOptions.valued("master", "URL", "Train on Apache Spark: local[N], local-cluster[N,CORES,MB] or"
                    + " spark://host:port (the launcher puts Spark on the class path; docs/distributed.md)."),
            CliOptions.valued("workers", "N", "With --master: the number of Spark workers (tasks of one barrier"
                    + " stage; default 2)."),
            CliOptions.valued("checkpoint", "DIR", "With --master: rank 0 checkpoints here (a Hadoop-compatible"
                    + " path every executor reaches); a retried stage resumes from it."),
            CliOptions.valued("checkpoint-every", "K", "With --checkpoint: steps between checkpoints (default 200)."),
            CliOptions.valued("onnx", "FILE", "After training, export the model for inference as an ONNX model"
                    + " (opset " + OnnxExport.OPSET + ") to FILE (docs/onnx.md)."));

    Workload workload;
    Path model;
    String label;
    Float fillValue;
    List<String> missing = List.of();
    List<TextColumnOption> textColumns = List.of();
    List<String> indicateMissing = List.of();
    boolean normalize;
    double validationSplit = 0.2;
    String loss;
    String optimizer = "adam";
    float learningRate = 1e-3f;
    List<String> metrics = List.of();
    Integer patience;
    Integer epochs;
    Integer threads;
    boolean eager;
    Path data = FashionMnist.DEFAULT_DIR;
    Path text = Fortunes.DEFAULT_DIR;
    int windowStride = Workloads.TRAIN_STRIDE;
    Integer batchSize;
    Long seed;
    Integer limit;
    boolean pipeline;
    Path profile;
    ProfileWindow profileSteps;
    int verbose = 1;
    Path tensorboard;
    int histogramFreq = 1;
    int updateFreq = 100;
    Path plot;
    Path onnx;
    boolean gemmPeak;
    Path save;
    Integer replicas;
    boolean overlap;
    String master;
    int workers = 2;
    String checkpoint;
    int checkpointEvery = 200;

    TrainCommand() {
        super("train", DESCRIPTION, OPTIONS);
    }

    @Override
    void read(OptionValues v) {
        workload = v.get("workload", Workload::parse, null);
        model = v.path("model", null);
        label = v.get("label", s -> s, null);
        fillValue = v.get("fill-value", Float::valueOf, null);
        missing = v.list("missing", x -> x, List.of());
        List<TextColumnOption> columns = new java.util.ArrayList<>(v.list("lookup-column", TextColumnOption::lookup,
                List.of()));
        columns.addAll(v.list("hash-column", TextColumnOption::hashed, List.of()));
        textColumns = List.copyOf(columns);
        indicateMissing = v.list("indicate-missing", x -> x, List.of());
        normalize = v.flag("normalize");
        validationSplit = v.get("validation-split", Double::valueOf, validationSplit);
        loss = v.get("loss", s -> s, null);
        optimizer = v.get("optimizer", s -> s, optimizer);
        learningRate = v.get("learning-rate", Float::valueOf, learningRate);
        metrics = v.list("metrics", x -> x, List.of());
        patience = v.integer("patience", null);
        epochs = v.integer("epochs", null);
        threads = v.integer("threads", null);
        eager = v.flag("eager");
        data = v.path("data", data);
        text = v.path("text", text);
        windowStride = v.integer("window-stride", windowStride);
        batchSize = v.integer("batch-size", null);
        seed = v.longInteger("seed", null);
        limit = v.integer("limit", null);
        pipeline = v.flag("pipeline");
        profile = v.path("profile", null);
        profileSteps = v.get("profile-steps", ProfileStepsConverter::convert, null);
        verbose = v.integer("verbose", verbose);
        tensorboard = v.path("tensorboard", null);
        histogramFreq = v.integer("histogram-freq", histogramFreq);
        updateFreq = v.integer("update-freq", updateFreq);
        plot = v.path("plot", null);
        onnx = v.path("onnx", null);
        gemmPeak = v.flag("gemm-peak");
        save = v.path("save", null);
        replicas = v.integer("replicas", null);
        overlap = v.flag("overlap");
        master = v.get("master", s -> s, null);
        workers = v.integer("workers", workers);
        checkpoint = v.get("checkpoint", s -> s, null);
        checkpointEvery = v.integer("checkpoint-every", checkpointEvery);
    }

    /** Epochs this run trains: {@code --epochs}, the workload's default, or 10 for {@code --model}. */
    public int effectiveEpochs() {
        return epochs != null ? epochs : workload != null ? workload.defaultEpochs() : UserModelRun.EPOCHS;
    }

    /** Samples per batch: {@code --batch-size}, the workload's, or Keras' 32 for {@code --model}. */
    public int effectiveBatchSize() {
        return batchSize != null ? batchSize : workload != null ? workload.batchSize() : 32;
    }

    /** "compiled" or "eager". */
    public String mode() {
        return eager ? "eager" : "compiled";
    }

    @Override
    int call() throws IOException {
        validate();
        applySettings();
        run(System.out);
        return 0;
    }

    /** Rejects out-of-range values and options that do not go together as usage errors (exit code 2). */
    void validate() {
        OptionRules.check(
                refuse(workload == null && model == null,
                        () -> "Missing required option: give --workload ID or --model MODEL.json"),
                refuse(workload != null && model != null,
                        () -> "--workload and --model do not go together: train a workload or your model"));
        if (model != null) {
            UserModelRun.validate(this);
        }
        boolean text = workload != null && workload.text();
        boolean distributed = master != null || replicas != null;
        OptionRules.check(
                refuse(model == null && (label != null || fillValue != null || !indicateMissing.isEmpty()
                        || !textColumns.isEmpty() || normalize || loss != null || patience != null),
                        () -> "--label, --fill-value, --indicate-missing, --lookup-column, --hash-column,"
                                + " --normalize, --loss and --patience go with --model"),
                atLeast("--epochs", epochs, 1));
        OptionValues.requireThreadBudget("--threads", threads);
        OptionRules.check(
                atLeast("--batch-size", batchSize, 1),
                atLeast("--window-stride", windowStride, 1),
                atLeast("--limit", limit, 1),
                atLeast("--histogram-freq", histogramFreq, 0),
                atLeast("--update-freq", updateFreq, 0),
                notDirectory("--plot", plot, "curves.png"),
                notDirectory("--onnx", onnx, "model.onnx"),
                refuse(profileSteps != null && profile == null, () -> "--profile-steps needs --profile FILE"),
                refuse(pipeline && text, () -> "--pipeline feeds Fashion-MNIST images; " + workload.id()
                        + " trains on windows of text; run it without --pipeline"),
                refuse(pipeline && workload != null && !workload.trainsThroughPipeline(),
                        () -> "--pipeline cannot feed workload " + workload.id() + ": the pipeline scales the"
                                + " features only, and " + workload.id() + "'s targets are its input pixels; run it"
                                + " without --pipeline"),
                atLeast("--replicas", replicas, 1),
                atLeast("--workers", workers, 1),
                atLeast("--checkpoint-every", checkpointEvery, 1),
                refuse(overlap && !distributed, () -> "--overlap overlaps the gradient exchange of --replicas or"
                        + " --master; one process exchanges nothing"),
                refuse(master != null && replicas != null, () -> "--replicas and --master do not go together:"
                        + " replicas share this JVM, --master trains on Spark workers (--workers N)"),
                refuse(master != null && onnx != null, () -> "--onnx does not go with --master: the model trained"
                        + " on Spark stays with the workers"),
                refuse(text && save != null, () -> "--save keeps the Fashion-MNIST workloads' models; "
                        + workload.id() + "'s positional embedding (Layers.positions()) has no Keras class to save"
                        + " as yet"),
                refuse(text && distributed, () -> (master != null ? "--master" : "--replicas") + " trains the"
                        + " Fashion-MNIST workloads; " + workload.id() + " trains on one JVM's compute pool"),
                refuse(master == null && checkpoint != null,
                        () -> "--checkpoint needs --master (checkpoints are written by the Spark workers)"),
                refuse(distributed && (pipeline || profile != null || tensorboard != null || eager),
                        () -> "--replicas and --master train from arrays with compiled steps: leave out"
                                + " --pipeline, --profile, --tensorboard and --eager"),
                refuse(verbose < 0 || verbose > 2,
                        () -> "Invalid value for option '--verbose': expected 0, 1 or 2 but was " + verbose));
    }

    /** Process-wide settings: the thread budget and the random seed. */
    void applySettings() {
        if (threads != null) {
            ThreadBudget.set(threads);
        }
        ThreadBudget.resolve(); // a bad -Dbrisk.threads or BRISK_THREADS fails here, before the model is built
        if (seed != null) {
            RandomSeed.set(seed);
        }
    }

    private void run(PrintStream out) throws IOException {
        if (model != null) {
            new UserModelRun(this).run(out);
            return;
        }
        if (workload.text()) {
            new LanguageModelRun(this).run(out);
            return;
        }
        int batchSize = effectiveBatchSize();
        FirstStepClock clock = new FirstStepClock();
        // The pipeline scales the raw pixels itself.
        TrainTestSplit split = FashionMnist.load(data, pipeline ? 1f : 255f, UnpackedCache.fromEnvironment());
        long dataLoaded = clock.sinceJvmStart();
        InMemoryDataset train = workload.prepare(split.train());
        InMemoryDataset test = workload.prepare(pipeline ? WorkloadPipelines.scaled(split.test()) : split.test());
        if (limit != null && limit < train.size()) {
            train = train.take(limit);
        }
        int n = effectiveEpochs();
        out.printf(Locale.ROOT, "brisk train: workload %s (%s), %d epoch%s, batch size %d, %d training and %d test"
                        + " samples from %s%s%n", workload.id(), workload.description(), n, n == 1 ? "" : "s",
                batchSize, train.size(), test.size(), data, pipeline ? " through the input pipeline" : "");

        Model model = workload.compiledModel();
        model.runEagerly(eager);
        model.printSummary();
        if (master != null) {
            ClusterTraining cluster = java.util.ServiceLoader.load(ClusterTraining.class).findFirst()
                    .orElseThrow(() -> new UsageException("--master needs brisk-spark and Apache Spark on the class"
                            + " path; run through ./brisk, which adds them (docs/distributed.md)"));
            ClusterTraining.Run run = cluster.train(new ClusterJob(workload, data, train.size(), test, model, n,
                    batchSize, seed != null ? seed : RandomSeed.next(), master, workers, checkpoint, checkpointEvery,
                    mode(), overlap), out);
            Map<String, Double> eval = model.evaluate(test, batchSize);
            TestMetric metric = workload.testMetric();
            out.printf(Locale.ROOT, "test: loss %.4f - accuracy %.4f (%d samples)%n",
                    eval.getOrDefault("loss", Double.NaN), eval.getOrDefault("accuracy", Double.NaN), test.size());
            if (save != null) {
                // The driver's model holds what rank 0 sent back: the trained weights and optimizer state.
                dev.brisk.keras.KerasModels.save(model, save);
                out.printf(Locale.ROOT, "model saved to %s%n", save);
            }
            History h = run.history();
            if (!h.asMap().containsKey("cpu_util")) {
                throw new IllegalStateException("the workers' history has no cpu_util: cannot report the run");
            }
            // cpu_util is rank 0's: its executor process's CPU time over wall time, per core of its budget (the
            // driver only waits, so its own CPU time would say nothing about the training).
            ResultLine result = new ResultLine("brisk", mode(), workload.id(), run.threadsPerWorker(),
                    train.size() / h.last("epoch_s"), h.last("cpu_util"), metric, metric.of(eval), n,
                    ProcStatus.peakRssMb());
            out.println(result.format() + String.format(Locale.ROOT, " workers=%d allreduce_ms_per_step=%.3f",
                    workers, h.last("allreduce_ms")));
            out.flush();
            return;
        }
        List<Callback> callbacks = new ArrayList<>();
        callbacks.add(clock);
        JitClock jit = new JitClock();
        callbacks.add(jit);
        if (tensorboard != null) {
            callbacks.add(new TensorBoard(tensorboard).histogramFreq(histogramFreq).updateFreq(updateFreq));
        }
        Fit fit = Fit.epochs(n).batchSize(batchSize).validation(test).verbose(verbose)
                .callbacks(callbacks.toArray(new Callback[0]));
        if (replicas != null) {
            fit.distribution(Distribution.replicas(replicas).overlap(overlap));
        }
        if (profile != null) {
            fit = profileSteps == null ? fit.profile(profile)
                    : fit.profile(profile, profileSteps.first(), profileSteps.last());
        }
        // With --pipeline the shuffle seed is drawn where fit draws its own, so --seed gives the same run.
        History history = pipeline
                ? model.fit(WorkloadPipelines.training(train, batchSize, RandomSeed.next()), fit)
                : model.fit(train, fit);
        EpochStats last = model.lastEpochStats();
        if (tensorboard != null) {
            if (profile != null) {
                Path exported = ProfileTraces.export(profile, tensorboard);
                out.printf(Locale.ROOT, "profile trace copied for TensorBoard's profile plugin to %s%n", exported);
            }
            out.printf(Locale.ROOT, "TensorBoard event files in %s (tensorboard --logdir %s)%n", tensorboard,
                    tensorboard);
        }
        if (plot != null) {
            HistoryPlot.save(history, plot);
            out.printf(Locale.ROOT, "training curves saved to %s%n", plot);
        }

        if (onnx != null) {
            OnnxExport.export(model, onnx);
            out.printf(Locale.ROOT, "ONNX model (opset %d) written to %s%n", OnnxExport.OPSET, onnx);
        }

        Map<String, Double> eval = model.evaluate(test, batchSize);
        TestMetric metric = workload.testMetric();
        if (metric == TestMetric.ACCURACY) {
            out.printf(Locale.ROOT, "test: loss %.4f - accuracy %.4f (%d samples)%n",
                    eval.getOrDefault("loss", Double.NaN), metric.of(eval), test.size());
        } else {
            out.printf(Locale.ROOT, "test: loss %.4f (%d samples)%n", eval.getOrDefault("loss", Double.NaN),
                    test.size());
        }

        if (save != null) {
            dev.brisk.keras.KerasModels.save(model, save);
            out.printf(Locale.ROOT, "model saved to %s%n", save);
        }

        ResultLine result = new ResultLine("brisk", mode(), workload.id(), ThreadBudget.resolve().threads(),
                last == null ? 0 : last.samplesPerSecond(), last == null ? 0 : last.coresBusy(), metric,
                metric.of(eval), n, ProcStatus.peakRssMb());
        out.println(FirstStepClock.format(clock.firstStepMillis(), dataLoaded) + " " + jit.fields()
                + (gemmPeak ? " " + GemmPeak.fields() : ""));
        out.println(result.format() + (replicas == null ? "" : String.format(Locale.ROOT,
                " replicas=%d allreduce_ms_per_step=%.3f", replicas, history.last("allreduce_ms"))));
        out.flush();
    }
}

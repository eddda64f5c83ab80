package dev.brisk.cli;

import dev.brisk.callbacks.Callback;
import dev.brisk.callbacks.EarlyStopping;
import dev.brisk.callbacks.EpochStats;
import dev.brisk.callbacks.History;
import dev.brisk.callbacks.Monitor;
import dev.brisk.data.FashionMnist;
import dev.brisk.data.preprocessing.Normalization;
import dev.brisk.keras.KerasJson;
import dev.brisk.keras.KerasModels;
import dev.brisk.nn.Fit;
import dev.brisk.nn.InputLayer;
import dev.brisk.nn.Model;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.nn.RandomSeed;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code brisk train --model MODEL.json --data DATA --label COLUMN}: the user's model (a Keras 3 {@code config.json}
 * description, read by brisk-keras's reader, or a whole {@code .keras} file) trained on the user's data
 * ({@link UserData}). The last {@code --validation-split} of the rows (Keras' {@code validation_split}: the tail,
 * before shuffling) validates every epoch and is what the RESULT line reports on: {@code test_acc=} when the model
 * has an accuracy metric, else {@code test_loss=}. With {@code --normalize} every feature is standardized by the
 * training rows' mean and variance (Keras' {@code Normalization} adapted on the training split), outside the model:
 * a model saved with {@code --save} expects standardized features, and the run prints the means and variances.
 */
final class UserModelRun {
    /** Epochs when {@code --epochs} is not given. */
    static final int EPOCHS = 10;

    private final TrainCommand o;

    UserModelRun(TrainCommand options) {
        this.o = options;
    }

    /** The usage errors of {@code --model}, found before anything is read. */
    static void validate(TrainCommand o) {
        OptionRules.check(
                OptionRules.refuse(o.data.equals(FashionMnist.DEFAULT_DIR),
                        () -> "--model needs --data: a CSV, NPY or IDX file, or a directory of images"),
                OptionRules.refuse(!(o.validationSplit > 0 && o.validationSplit < 1),
                        () -> "Invalid value for option '--validation-split': must be strictly between 0 and 1 but"
                                + " was " + o.validationSplit),
                OptionRules.atLeast("--patience", o.patience, 1),
                OptionRules.refuse(!o.missing.isEmpty() && o.fillValue == null,
                        () -> "--missing needs --fill-value X (the value missing cells are read as)"),
                OptionRules.refuse(!o.indicateMissing.isEmpty() && o.fillValue == null,
                        () -> "--indicate-missing needs --fill-value X (the value missing cells are read as; the"
                                + " indicator columns mark where it was used)"),
                OptionRules.refuse(o.pipeline || o.replicas != null || o.master != null || o.limit != null
                        || o.profile != null,
                        () -> "--pipeline, --replicas, --master, --limit and --profile go with --workload"));
    }

    void run(PrintStream out) throws IOException {
        Model model = model();
        Shape input = model.inputs().isEmpty() ? Shape.of() : model.inputs().get(0).shape();
        UserData data = UserData.load(o.data, o.label, new UserData.Missing(o.fillValue, o.missing, o.indicateMissing),
                o.textColumns, input, RandomSeed.next());
        InputLayer first = model.inputs().isEmpty() ? null : (InputLayer) model.inputs().get(0).layer();
        if (first != null && first.dtype() == DType.INT32) {
            // Token ids: a CSV's or NPY file's numbers as the int32 the input takes (Keras casts them the same way).
            if (o.normalize) {
                throw new UsageException("--normalize standardizes features, but the model's input '" + first.name()
                        + "' takes int32 token ids; leave out --normalize");
            }
            data = data.withIntegerFeatures(first.name());
        }
        data.notes().forEach(out::println);
        int n = data.size();
        int at = (int) Math.floor(n * (1.0 - o.validationSplit));
        if (at < 1 || at >= n) {
            throw new UsageException("--validation-split " + o.validationSplit + " of " + n + " rows leaves " + at
                    + " to train on and " + (n - at) + " to validate on; both need at least one");
        }
        Tensor x = data.x();
        if (o.normalize) {
            Normalization norm = Normalization.adapt(List.of(x.slice(0, at)));
            x = norm.apply(x);
            out.printf(Locale.ROOT, "normalized with the training rows' mean %s and variance %s%n",
                    java.util.Arrays.toString(norm.mean()), java.util.Arrays.toString(norm.variance()));
        }
        Tensor trainX = x.slice(0, at);
        Tensor trainY = data.y().slice(0, at);
        Tensor valX = x.slice(at, n);
        Tensor valY = data.y().slice(at, n);
        int epochs = o.effectiveEpochs();
        int batchSize = o.effectiveBatchSize();
        out.printf(Locale.ROOT, "brisk train: model %s on %s (%d training and %d validation rows%s), %d epoch%s,"
                        + " batch size %d%n", o.model, o.data, at, n - at, data.featureNames().isEmpty() ? ""
                        : ", features " + data.featureNames(), epochs, epochs == 1 ? "" : "s", batchSize);
        model.runEagerly(o.eager);
        List<Callback> callbacks = new ArrayList<>();
        if (o.patience != null) {
            callbacks.add(new EarlyStopping("val_loss", 0, o.patience, Monitor.MIN, true));
        }
        Fit fit = Fit.epochs(epochs).batchSize(batchSize).validation(valX, valY).verbose(o.verbose)
                .callbacks(callbacks.toArray(new Callback[0]));
        History history = model.fit(trainX, trainY, fit);
        model.printSummary();
        EpochStats last = model.lastEpochStats();
        Map<String, Double> eval = model.evaluate(valX, valY, batchSize);
        TestMetric metric = eval.containsKey(TestMetric.ACCURACY.evaluateKey()) ? TestMetric.ACCURACY
                : TestMetric.LOSS;
        out.printf(Locale.ROOT, "validation: %s (%d rows)%n", eval, n - at);
        if (o.save != null) {
            KerasModels.save(model, o.save);
            out.printf(Locale.ROOT, "model saved to %s%n", o.save);
        }
        String name = o.model.getFileName().toString().replaceAll("\\s", "_");
        ResultLine result = new ResultLine("brisk", o.mode(), name, ThreadBudget.resolve().threads(),
                last == null ? 0 : last.samplesPerSecond(), last == null ? 0 : last.coresBusy(), metric,
                metric.of(eval), history.epochs().size(), ProcStatus.peakRssMb());
        out.println(result.format());
        out.flush();
    }

    /** The model: a {@code .keras} file whole, or a JSON description compiled by its own config or the options. */
    private Model model() throws IOException {
        Model m = o.model.toString().endsWith(".keras") ? KerasModels.load(o.model) : KerasJson.read(o.model);
        if (m.optimizer() != null) {
            if (o.loss != null) {
                throw new UsageException("--loss: " + o.model + " is compiled by its own compile_config; leave out"
                        + " --loss, --optimizer, --learning-rate and --metrics (they would be ignored)");
            }
            return m;
        }
        if (o.loss == null) {
            throw new UsageException(o.model + " has no compile_config: give --loss NAME (and --optimizer,"
                    + " --learning-rate, --metrics as needed)");
        }
        String optimizer = switch (o.optimizer.toLowerCase(Locale.ROOT)) {
            case "adam" -> "Adam";
            case "adamw" -> "AdamW";
            case "sgd" -> "SGD";
            case "rmsprop" -> "RMSprop";
            default -> throw new UsageException("Invalid value for option '--optimizer': " + o.optimizer
                    + " (adam, adamw, sgd or rmsprop)");
        };
        try {
            KerasJson.compile(m, o.loss, optimizer, o.learningRate, o.metrics);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--loss/--metrics: " + e.getMessage());
        }
        return m;
    }
}

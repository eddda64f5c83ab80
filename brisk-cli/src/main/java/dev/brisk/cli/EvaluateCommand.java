package dev.brisk.cli;

import dev.brisk.data.FashionMnist;
import dev.brisk.data.InMemoryDataset;
import dev.brisk.data.TrainTestSplit;
import dev.brisk.data.UnpackedCache;
import dev.brisk.nn.Model;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.profile.CpuTime;
import dev.brisk.tensor.Shape;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.cli.Options;

/**
 * {@code brisk evaluate --model FILE.keras [--data DIR]}: a saved model's loss and metrics on the Fashion-MNIST test
 * set, printed as {@code brisk train} prints its evaluation, and a RESULT line.
 */
final class EvaluateCommand extends ModelFileCommand {
    private static final List<String> DESCRIPTION = List.of(
            "Evaluates a model saved in a .keras file (brisk train --save) on the Fashion-MNIST test set and prints"
                    + " the same test line as brisk train, then one RESULT line naming the model file (model=),"
                    + " with evaluation's throughput and the optimizer steps the file records (docs/benchmarking.md).");
    private static final Options OPTIONS = CliOptions.of(
            CliOptions.required("model", "FILE", "The .keras file (written by brisk train --save or Keras 3)."),
            CliOptions.valued("data", "DIR", "Directory with the Fashion-MNIST IDX files (default: "
                    + FashionMnist.DEFAULT_DIR + ")."),
            CliOptions.valued("batch-size", "N", "Batch size (default: " + Workloads.BATCH_SIZE + ", as train)."),
            CliOptions.valued("threads", "N", "Thread budget (default: the machine's)."));
    Path data = FashionMnist.DEFAULT_DIR;
    int batchSize = Workloads.BATCH_SIZE;
    Integer threads;

    EvaluateCommand() {
        super("evaluate", DESCRIPTION, OPTIONS);
    }

    @Override
    void read(OptionValues v) {
        super.read(v);
        data = v.path("data", data);
        batchSize = v.integer("batch-size", batchSize);
        threads = v.integer("threads", null);
        if (batchSize < 1) {
            throw new UsageException("--batch-size must be at least 1, got " + batchSize);
        }
        if (threads != null && threads < 1) {
            throw new UsageException("--threads must be at least 1, got " + threads);
        }
    }

    @Override
    int call() throws Exception {
        if (threads != null) {
            ThreadBudget.set(threads);
        }
        Model m = load();
        if (m.compiledLosses() == null) {
            throw new IllegalArgumentException(model + ": the model was saved without compile settings (no loss to "
                    + "evaluate)");
        }
        TrainTestSplit split = FashionMnist.load(data, 255f, UnpackedCache.fromEnvironment());
        InMemoryDataset test = fit(split.test(), m);
        System.out.printf(Locale.ROOT, "brisk evaluate: model %s from %s, %d test samples from %s%n", m.name(),
                model, test.size(), data);
        long wall = System.nanoTime();
        long cpu = CpuTime.processNanos();
        Map<String, Double> eval = m.evaluate(test, batchSize);
        double seconds = (System.nanoTime() - wall) / 1e9;
        double busy = (CpuTime.processNanos() - cpu) / 1e9 / seconds;
        TestMetric metric = eval.containsKey("accuracy") ? TestMetric.ACCURACY : TestMetric.LOSS;
        if (metric == TestMetric.ACCURACY) {
            System.out.printf(Locale.ROOT, "test: loss %.4f - accuracy %.4f (%d samples)%n",
                    eval.getOrDefault("loss", Double.NaN), metric.of(eval), test.size());
        } else {
            System.out.printf(Locale.ROOT, "test: loss %.4f (%d samples)%n", eval.getOrDefault("loss", Double.NaN),
                    test.size());
        }
        long steps = m.optimizer() == null ? 0 : m.optimizer().iterations();
        System.out.println(resultLine(m.runsEagerly() ? "eager" : "compiled", model.getFileName().toString(),
                ThreadBudget.resolve().threads(), test.size() / seconds, busy, metric, metric.of(eval), steps,
                ProcStatus.peakRssMb()));
        System.out.flush();
        return 0;
    }

    /**
     * The pattern of evaluate's RESULT line. It is not {@link ResultLine}'s (a training run's): nothing is trained,
     * so it names the model file ({@code model=}, spaces as underscores) rather than a workload, its throughput is
     * evaluation's ({@code eval_samples_per_s=}), and instead of epochs it gives the optimizer steps the model was
     * trained for as the file records them ({@code optimizer_steps=}, 0 for a model saved without an optimizer).
     */
    static final String RESULT_REGEX = "RESULT framework=brisk command=evaluate mode=(compiled|eager) model=\\S+"
            + " threads=\\d+ eval_samples_per_s=\\d+ cpu_util=\\d+\\.\\d{2}"
            + " (test_acc=\\d\\.\\d{4}|test_loss=\\d+\\.\\d{4}) optimizer_steps=\\d+ peak_rss_mb=\\d+";

    /** Evaluate's RESULT line ({@link #RESULT_REGEX}). */
    static String resultLine(String mode, String modelFile, int threads, double samplesPerSecond, double busy,
                             TestMetric metric, double value, long optimizerSteps, long peakRssMb) {
        String file = modelFile.isBlank() ? "model" : modelFile.replaceAll("\\s", "_");
        return String.format(Locale.ROOT, "RESULT framework=brisk command=evaluate mode=%s model=%s threads=%d"
                + " eval_samples_per_s=%d cpu_util=%.2f %s=%.4f optimizer_steps=%d peak_rss_mb=%d", mode, file, threads,
                Math.round(samplesPerSecond), busy, metric.resultField(), value, optimizerSteps, peakRssMb);
    }

    /** The test images shaped as the model's input: flat rows for an MLP, images for a convolutional network. */
    private InMemoryDataset fit(InMemoryDataset images, Model m) {
        if (m.inputs().size() != 1) {
            throw new IllegalArgumentException(model + ": evaluate takes models with one input; this one has "
                    + m.inputs().size());
        }
        Shape want = m.inputs().get(0).shape();
        if (want.accepts(images.featureShape())) { // an open axis takes the images' size (rows read as steps)
            return images;
        }
        if (want.isOpen() || want.size() != images.featureShape().size()) {
            throw new IllegalArgumentException(model + ": the model's input " + dev.brisk.nn.Layer.withBatch(want)
                    + " does not take Fashion-MNIST images " + dev.brisk.nn.Layer.withBatch(images.featureShape()));
        }
        return images.reshapeFeatures(want);
    }
}

package dev.brisk.cli;

import dev.brisk.cli.Workloads.Workload;
import dev.brisk.data.FashionMnist;
import dev.brisk.data.InMemoryDataset;
import dev.brisk.data.UnpackedCache;
import dev.brisk.nn.Fit;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Sequential;
import dev.brisk.parallel.ThreadBudget;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.commons.cli.Options;

/**
 * {@code brisk scaling}: thread scaling measured in pairs, in one JVM. One model trains the same steps on 1 thread
 * and on N threads, alternately, a few hundred milliseconds each; every pair gives a ratio of samples/s, and the
 * median of the ratios is the result. On a shared machine whose speed drifts from minute to minute (a host core
 * shared with another tenant), ratios of runs seconds apart say more than ratios of separate runs a minute apart.
 */
public final class ScalingCommand extends Subcommand {
    private static final List<String> DESCRIPTION = List.of(
            "Measures thread scaling in one JVM: trains the same compiled model on 1 thread and on N threads"
                    + " alternately, a number of steps each, and prints every pair's samples/s and ratio, then the"
                    + " median ratio in a SCALING line.",
            "Each half of a pair is a whole pass of fit over the same samples, data batching included.");
    private static final Options OPTIONS = CliOptions.of(
            CliOptions.valued("workload", "w1|w2", "Workload (default: w1)."),
            CliOptions.valued("threads", "N",
                    "The thread budget compared with 1 (default: the whole budget, at least 2)."),
            CliOptions.valued("pairs", "N", "Measured pairs (default: 10)."),
            CliOptions.valued("warmup-pairs", "N",
                    "Pairs run first and not counted, while the JIT compiles (default: 2)."),
            CliOptions.valued("steps", "N", "Training steps in each half of a pair (default: 100)."),
            CliOptions.valued("data", "DIR",
                    "Directory of the Fashion-MNIST IDX files (default: " + FashionMnist.DEFAULT_DIR + ")."),
            CliOptions.valued("seed", "S", "Seed of the weights (default: 1)."));

    Workload workload = Workload.W1;
    Integer threads;
    int pairs = 10;
    int warmupPairs = 2;
    int steps = 100;
    Path data = FashionMnist.DEFAULT_DIR;
    long seed = 1;

    ScalingCommand() {
        super("scaling", DESCRIPTION, OPTIONS);
    }

    @Override
    void read(OptionValues v) {
        workload = v.get("workload", Workload::parse, workload);
        threads = v.integer("threads", null);
        pairs = v.integer("pairs", pairs);
        warmupPairs = v.integer("warmup-pairs", warmupPairs);
        steps = v.integer("steps", steps);
        data = v.path("data", data);
        seed = v.longInteger("seed", seed);
    }

    @Override
    int call() throws IOException {
        int many = threads != null ? threads : Math.max(2, ThreadBudget.threads());
        validate(many);
        RandomSeed.set(seed);
        PrintStream out = System.out;
        InMemoryDataset train =
                workload.prepare(FashionMnist.load(data, 255f, UnpackedCache.fromEnvironment()).train());
        int batch = Workloads.BATCH_SIZE;
        int samples = Math.min(train.size(), Math.multiplyExact(steps, batch));
        train = train.take(samples);
        Sequential model = workload.compiledModel();
        Fit pass = Fit.epochs(1).batchSize(batch).verbose(0);
        out.printf(Locale.ROOT, "brisk scaling: workload %s, 1 vs %d threads, %d pairs (after %d warm-up) of %d"
                + " samples each, in one JVM%n", workload.id(), many, pairs, warmupPairs, samples);

        List<Double> ratios = new ArrayList<>();
        List<Double> ones = new ArrayList<>();
        List<Double> manys = new ArrayList<>();
        try {
            for (int p = 0; p < warmupPairs + pairs; p++) {
                // Alternate which half goes first, so a steady drift in the machine's speed favours neither.
                boolean oneFirst = p % 2 == 0;
                double first = samplesPerSecond(model, train, pass, oneFirst ? 1 : many);
                double second = samplesPerSecond(model, train, pass, oneFirst ? many : 1);
                double one = oneFirst ? first : second;
                double n = oneFirst ? second : first;
                boolean counted = p >= warmupPairs;
                if (counted) {
                    ratios.add(n / one);
                    ones.add(one);
                    manys.add(n);
                }
                out.printf(Locale.ROOT, "pair %d%s: 1 thread %.0f samples/s, %d threads %.0f samples/s, ratio %.2f%n",
                        p + 1, counted ? "" : " (warm-up)", one, many, n, n / one);
            }
        } finally {
            ThreadBudget.reset();
        }
        out.printf(Locale.ROOT, "SCALING framework=brisk workload=%s threads=%d pairs=%d median_ratio=%.3f"
                        + " min_ratio=%.3f max_ratio=%.3f samples_per_s_1=%.0f samples_per_s_%d=%.0f%n",
                workload.id(), many, pairs, BenchReport.median(ratios), min(ratios), max(ratios),
                BenchReport.median(ones), many, BenchReport.median(manys));
        return 0;
    }

    private void validate(int many) {
        if (many < 2) {
            throw new UsageException("--threads must be at least 2 but was " + many);
        }
        if (pairs < 1) {
            throw new UsageException("--pairs must be at least 1 but was " + pairs);
        }
        if (warmupPairs < 0) {
            throw new UsageException("--warmup-pairs must be at least 0 but was " + warmupPairs);
        }
        if (steps < 1) {
            throw new UsageException("--steps must be at least 1 but was " + steps);
        }
    }

    /** One pass of {@code fit} over {@code train} on a budget of {@code threads}: samples per second of wall time. */
    private static double samplesPerSecond(Sequential model, InMemoryDataset train, Fit pass, int threads) {
        ThreadBudget.set(threads);
        long start = System.nanoTime();
        model.fit(train, pass);
        return train.size() / ((System.nanoTime() - start) / 1e9);
    }

    private static double min(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    }

    private static double max(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    }
}

package dev.brisk.cli;

import dev.brisk.cli.Workloads.Workload;
import dev.brisk.data.FashionMnist;
import dev.brisk.data.InMemoryDataset;
import dev.brisk.data.UnpackedCache;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.profile.Profile;
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
 * Each half's steal ({@link HostCpu}) shows which pairs the host disturbed; the pairs it left alone get a median
 * of their own. Each half's median step ({@link StepClock}) gives a second ratio, of what a step costs when nothing
 * interrupts it, and its stalls the share of its time lost to steps far slower than that: together they tell
 * whether the engine or the machine holds the throughput ratio down.
 */
public final class ScalingCommand extends Subcommand {
    private static final List<String> DESCRIPTION = List.of(
            "Measures thread scaling in one JVM: trains the same compiled model on 1 thread and on N threads"
                    + " alternately, a number of steps each, and prints every pair's samples/s and ratio, then the"
                    + " median ratio in a SCALING line.",
            "Each half of a pair is a whole pass of fit over the same samples, data batching included.",
            "Every pair also shows the share of the machine's CPU time the hypervisor stole during each half"
                    + " (Linux /proc/stat; '-' where unknown), and the SCALING line the steal over all counted"
                    + " halves and the median ratio of the quiet pairs, those with under 2% stolen in both halves.",
            "Every half is also timed step by step (end of one batch to the end of the next): each pair shows the"
                    + " two median steps, their ratio, and the share of each half's time spent in steps slower than"
                    + " 1.5x its median (stalls); the SCALING line ends with the median of those step ratios and of"
                    + " the stall shares.",
            "With --kernels, every half also profiles its steps, and a table at the end gives each kernel call's"
                    + " median time on 1 thread and on N and the median of the pairs' ratios: which kernels do not"
                    + " halve.");
    private static final Options OPTIONS = CliOptions.of(
            CliOptions.valued("workload", "ID", "Workload: " + Workload.validIds() + " (default: w1)."),
            CliOptions.valued("threads", "N",
                    "The thread budget compared with 1 (default: the whole budget, at least 2)."),
            CliOptions.valued("pairs", "N", "Measured pairs (default: 10)."),
            CliOptions.valued("warmup-pairs", "N",
                    "Pairs run first and not counted, while the JIT compiles (default: 2)."),
            CliOptions.valued("steps", "N", "Training steps in each half of a pair (default: 100)."),
            CliOptions.valued("data", "DIR",
                    "Directory of the Fashion-MNIST IDX files (default: " + FashionMnist.DEFAULT_DIR + ")."),
            CliOptions.valued("seed", "S", "Seed of the weights (default: 1)."),
            CliOptions.flag("kernels", "Profile every half and print each kernel's time on 1 and N threads."));

    /**
     * A half that lost less than this share of the machine's CPU time to the hypervisor counts as quiet. The spread
     * of ratios between pairs the host leaves alone is a few percent; steal of 25-30%, as seen on the shared 2-vCPU
     * benchmark machine, swamps it, and 2% is small beside it. /proc/stat counts hundredths of a second, so one jiffy
     * of a half of 0.25 s on two vCPUs (50 jiffies) is already 2%: halves should be long enough (--steps) for this.
     */
    static final double QUIET_STEAL = 0.02;

    Workload workload = Workload.W1;
    Integer threads;
    int pairs = 10;
    int warmupPairs = 2;
    int steps = 100;
    Path data = FashionMnist.DEFAULT_DIR;
    long seed = 1;
    boolean kernels;

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
        kernels = v.flag("kernels");
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
        Model model = workload.compiledModel();
        StepClock clock = new StepClock(Math.ceilDiv(samples, batch));
        Fit pass = Fit.epochs(1).batchSize(batch).verbose(0).callbacks(clock);
        int stepsPerHalf = Math.ceilDiv(samples, batch);
        if (kernels) {
            // From the second step: the first of a half meets the other budget's caches.
            pass.profileSteps(Math.min(2, stepsPerHalf), stepsPerHalf);
        }
        KernelScaling kernelTimes = new KernelScaling();
        out.printf(Locale.ROOT, "brisk scaling: workload %s, 1 vs %d threads, %d pairs (after %d warm-up) of %d"
                + " samples each, in one JVM%n", workload.id(), many, pairs, warmupPairs, samples);

        List<Double> ratios = new ArrayList<>();
        List<Double> ones = new ArrayList<>();
        List<Double> manys = new ArrayList<>();
        List<Double> quietRatios = new ArrayList<>();
        List<Double> stepRatios = new ArrayList<>();
        List<Double> oneStalls = new ArrayList<>();
        List<Double> manyStalls = new ArrayList<>();
        HostCpu counted = new HostCpu(0, 0);
        try {
            for (int p = 0; p < warmupPairs + pairs; p++) {
                // Alternate which half goes first, so a steady drift in the machine's speed favours neither.
                boolean oneFirst = p % 2 == 0;
                Half first = half(model, train, pass, clock, oneFirst ? 1 : many);
                Half second = half(model, train, pass, clock, oneFirst ? many : 1);
                Half one = oneFirst ? first : second;
                Half n = oneFirst ? second : first;
                double ratio = n.samplesPerSecond() / one.samplesPerSecond();
                double stepRatio = one.medianStepNanos() / n.medianStepNanos();
                boolean isCounted = p >= warmupPairs;
                if (isCounted) {
                    if (kernels) {
                        kernelTimes.addPair(one.profile(), n.profile());
                    }
                    ratios.add(ratio);
                    ones.add(one.samplesPerSecond());
                    manys.add(n.samplesPerSecond());
                    counted = counted.plus(one.cpu()).plus(n.cpu());
                    stepRatios.add(stepRatio);
                    oneStalls.add(one.stallShare());
                    manyStalls.add(n.stallShare());
                    if (one.quiet() && n.quiet()) {
                        quietRatios.add(ratio);
                    }
                }
                out.printf(Locale.ROOT, "pair %d%s: 1 thread %.0f samples/s, %d threads %.0f samples/s, ratio %.2f,"
                                + " steal %s / %s, median step %.0f / %.0f us (ratio %.2f), stalled %.1f%% / %.1f%%%n",
                        p + 1, isCounted ? "" : " (warm-up)", one.samplesPerSecond(), many, n.samplesPerSecond(),
                        ratio, one.cpu().stealPercent(), n.cpu().stealPercent(), one.medianStepNanos() / 1e3,
                        n.medianStepNanos() / 1e3, stepRatio, 100 * one.stallShare(), 100 * n.stallShare());
            }
        } finally {
            ThreadBudget.reset();
        }
        kernelTimes.print(out, many);
        out.printf(Locale.ROOT, "SCALING framework=brisk workload=%s threads=%d pairs=%d median_ratio=%.3f"
                        + " min_ratio=%.3f max_ratio=%.3f samples_per_s_1=%.0f samples_per_s_%d=%.0f"
                        + " steal_pct=%s quiet_pairs=%s quiet_median_ratio=%s median_step_ratio=%.3f"
                        + " stall_pct_1=%.1f stall_pct_%d=%.1f%n",
                workload.id(), many, pairs, BenchReport.median(ratios), min(ratios), max(ratios),
                BenchReport.median(ones), many, BenchReport.median(manys),
                Double.isNaN(counted.stealFraction()) ? "n/a"
                        : String.format(Locale.ROOT, "%.1f", 100 * counted.stealFraction()),
                counted.known() ? Integer.toString(quietRatios.size()) : "n/a",
                quietRatios.isEmpty() ? "n/a" : String.format(Locale.ROOT, "%.3f", BenchReport.median(quietRatios)),
                BenchReport.median(stepRatios), 100 * BenchReport.median(oneStalls), many,
                100 * BenchReport.median(manyStalls));
        return 0;
    }

    private void validate(int many) {
        if (many < 2) {
            throw new UsageException("--threads must be at least 2 but was " + many);
        }
        OptionValues.requireThreadBudget("--threads", many);
        if (workload.text()) {
            throw new UsageException("brisk scaling measures the Fashion-MNIST workloads; " + workload.id()
                    + " trains on text (measure it with brisk bench --workloads " + workload.id() + ")");
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

    /**
     * One pass of {@code fit} over {@code train} on a budget of {@code threads}, the machine's CPU meanwhile, and
     * its steps as {@code clock} (one of {@code pass}'s callbacks) timed them.
     */
    private static Half half(Model model, InMemoryDataset train, Fit pass, StepClock clock, int threads) {
        ThreadBudget.set(threads);
        clock.reset();
        HostCpu before = HostCpu.now();
        long start = System.nanoTime();
        model.fit(train, pass);
        double seconds = (System.nanoTime() - start) / 1e9;
        return new Half(train.size() / seconds, HostCpu.now().since(before), clock.medianNanos(),
                clock.stallShare(), model.lastProfile());
    }

    /**
     * One half of a pair: samples per second of wall time, the machine's CPU time during it, its median step in
     * nanoseconds, the share of its step time spent beyond {@link dev.brisk.profile.StepStalls#FACTOR} times that
     * median, and its profile (with {@code --kernels}; else whatever the model last kept).
     */
    record Half(double samplesPerSecond, HostCpu cpu, double medianStepNanos, double stallShare, Profile profile) {
        /** Less than {@link #QUIET_STEAL} stolen, as far as is known (an unknown steal is not quiet). */
        boolean quiet() {
            return cpu.stealFraction() < QUIET_STEAL; // false for NaN
        }
    }

    private static double min(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    }

    private static double max(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    }
}

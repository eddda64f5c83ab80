package dev.brisk.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * Prints the benchmark's table, its ratios (thread scaling, eager vs compiled) and the runs' RESULT lines. With
 * several rounds the table shows each configuration's median run, and each ratio is computed within every round
 * (runs close in time, so the machine's drift cancels) and then its median taken. The steal column is the share of
 * the machine's CPU time the hypervisor took during each whole run (JVM start to exit, not only the measured epoch);
 * the jit column is the JIT compilers' time during the measured epoch, as a share of that epoch's core time (the
 * wall time times the threads): time the training threads may have waited for a core. The gemm column is the gemm
 * peak each run measured in its own JVM after training, which the percentage divides by. The test column is each
 * run's test accuracy ("acc 0.8850"), or its test loss ("loss 0.2712") for a workload without an accuracy.
 */
final class BenchReport {
    private BenchReport() {
    }

    /** {@code rounds}: one list per round, every round running the same configurations in the same order. */
    static void print(PrintStream out, List<List<BenchRun.Outcome>> rounds) {
        print(out, rounds, List.of(), false);
    }

    /**
     * As {@link #print(PrintStream, List)}, with the side-by-side table of a peer's twins ({@link PeerTable}) after
     * the ratios, and the twins' RESULT lines after Brisk's of each round. {@code peerRounds}: the twins' outcomes,
     * one list per round in the same order every round; empty without a peer. {@code peersInRounds}: whether they
     * ran in Brisk's rounds (or were read from a file).
     */
    static void print(PrintStream out, List<List<BenchRun.Outcome>> rounds, List<List<PeerRun.Outcome>> peerRounds,
                      boolean peersInRounds) {
        List<BenchRun.Outcome> first = rounds.get(0);
        out.printf(Locale.ROOT, "%-9s %-9s %7s %11s %8s %8s %7s %10s %12s %8s %13s %6s %6s%n", "workload", "mode",
                "threads", "samples/s", "cpu", "GFLOP/s", "gemm", "% of gemm", "test", "rss_MB", "first_step_ms",
                "jit", "steal");
        for (int c = 0; c < first.size(); c++) {
            BenchRun.Outcome o = medianRun(runsOf(rounds, c));
            boolean peak = !Double.isNaN(o.gemmPeak());
            String gemm = peak ? String.format(Locale.ROOT, "%.1f", o.gemmPeak()) : "-";
            String pct = peak ? String.format(Locale.ROOT, "%.0f%%", 100 * o.gflops() / o.gemmPeak()) : "-";
            String jit = Double.isNaN(o.jitShare()) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * o.jitShare());
            out.printf(Locale.ROOT, "%-9s %-9s %7d %11.0f %8.2f %8.1f %7s %10s %12s %8d %13d %6s %6s%n",
                    o.run().workload().id(), o.run().mode(), o.run().threads(), o.samplesPerSecond(),
                    o.cpuUtilisation(), o.gflops(), gemm, pct, o.run().workload().testMetric().label(o.testValue()),
                    o.peakRssMb(), o.firstStepMillis(),
                    jit, o.host().stealPercent());
        }
        if (rounds.size() > 1) {
            out.printf(Locale.ROOT, "(median run of %d rounds; samples/s of every round, its gemm and its steal:)%n",
                    rounds.size());
            for (int c = 0; c < first.size(); c++) {
                BenchRun run = first.get(c).run();
                List<BenchRun.Outcome> runs = runsOf(rounds, c);
                out.printf(Locale.ROOT, "  %s %s threads=%d: %s (gemm %s; steal %s)%n", run.workload().id(),
                        run.mode(), run.threads(), joined(runs, o -> String.format(Locale.ROOT, "%.0f",
                                o.samplesPerSecond())),
                        joined(runs, o -> Double.isNaN(o.gemmPeak()) ? "-"
                                : String.format(Locale.ROOT, "%.0f", o.gemmPeak())),
                        joined(runs, o -> o.host().stealPercent()));
            }
        }
        printWarmUpWarnings(out, rounds);
        out.println();
        printRatios(out, rounds);
        out.println();
        if (!peerRounds.isEmpty() && !peerRounds.get(0).isEmpty()) {
            PeerTable.print(out, rounds, peerRounds, peersInRounds);
            out.println();
        }
        for (int r = 0; r < rounds.size(); r++) {
            for (BenchRun.Outcome o : rounds.get(r)) {
                out.println(o.resultLine());
            }
            if (r < peerRounds.size()) {
                for (PeerRun.Outcome o : peerRounds.get(r)) {
                    out.println(o.resultLine());
                }
            }
        }
    }

    /**
     * The JIT's share of the measured epoch above which the figure is called warm-up rather than steady training
     * (the compilers held a core for part of the epoch): Z3 at {@code --limit 6400}, 50 steps an epoch, showed 49%
     * and half its full-data speed, while Z1, Z2 and Z4 at that limit and Z3 on the full data stayed under 6%.
     */
    static final double WARM_UP_JIT_SHARE = 0.2;

    /** A line for each configuration whose median run measured the JIT's warm-up more than training. */
    private static void printWarmUpWarnings(PrintStream out, List<List<BenchRun.Outcome>> rounds) {
        for (int c = 0; c < rounds.get(0).size(); c++) {
            BenchRun.Outcome o = medianRun(runsOf(rounds, c));
            if (o.jitShare() > WARM_UP_JIT_SHARE) {
                out.printf(Locale.ROOT, "warning: %s %s threads=%d: the JIT compiled for %.0f%% of the measured "
                                + "epoch's core time, so its samples/s is mostly warm-up; measure more steps (less "
                                + "--limit, or more --epochs)%n", o.run().workload().id(), o.run().mode(),
                        o.run().threads(), 100 * o.jitShare());
            }
        }
    }

    private static String joined(List<BenchRun.Outcome> runs, Function<BenchRun.Outcome, String> field) {
        return runs.stream().map(field).collect(Collectors.joining(" / "));
    }

    /**
     * Thread scaling and eager/compiled ratios. Each line also gives how much the two runs' gemm peaks differ, round
     * by round: what the machine allowed FMA-bound work at the time (on a shared host, two vCPUs have given it
     * 1.7-2.3x, and two fresh JVMs at the same threads up to 1.5x apart), so that a ratio the host made can be told
     * from one the code made.
     */
    private static void printRatios(PrintStream out, List<List<BenchRun.Outcome>> rounds) {
        List<BenchRun.Outcome> first = rounds.get(0);
        BiPredicate<BenchRun, BenchRun> scaling = (a, b) -> a.workload() == b.workload() && a.eager() == b.eager()
                && a.threads() == 1 && b.threads() > 1;
        BiPredicate<BenchRun, BenchRun> eagerVsCompiled = (a, b) -> a.workload() == b.workload()
                && a.threads() == b.threads() && !a.eager() && b.eager();
        for (int i = 0; i < first.size(); i++) {
            for (int j = 0; j < first.size(); j++) {
                BenchRun a = first.get(i).run();
                BenchRun b = first.get(j).run();
                if (scaling.test(a, b)) {
                    int one = i;
                    int many = j;
                    out.printf(Locale.ROOT, "scaling %s %s 1 -> %d threads: %s%s%n", a.workload().id(), a.mode(),
                            b.threads(), ratios(rounds, j, i, BenchRun.Outcome::samplesPerSecond),
                            gemmPeaks(rounds, j, i, "gemm peak"));
                }
                if (eagerVsCompiled.test(a, b)) {
                    // step time eager / compiled = samples/s compiled / samples/s eager
                    out.printf(Locale.ROOT, "eager/compiled step time %s threads=%d: %s%s%n", a.workload().id(),
                            a.threads(), ratios(rounds, i, j, BenchRun.Outcome::samplesPerSecond),
                            gemmPeaks(rounds, i, j, "gemm peak compiled/eager"));
                }
            }
        }
    }

    /** " (LABEL: ratios)" of the gemm peaks of configurations {@code num} over {@code den}, or "" without them. */
    private static String gemmPeaks(List<List<BenchRun.Outcome>> rounds, int num, int den, String label) {
        boolean peaks = rounds.stream().allMatch(r -> !Double.isNaN(r.get(num).gemmPeak())
                && !Double.isNaN(r.get(den).gemmPeak()));
        return peaks ? " (" + label + ": " + ratios(rounds, num, den, BenchRun.Outcome::gemmPeak) + ")" : "";
    }

    /**
     * {@code value} of configuration {@code num} over that of {@code den} in every round: "1.81x" or "1.78 / 1.87,
     * median 1.81x".
     */
    private static String ratios(List<List<BenchRun.Outcome>> rounds, int num, int den,
                                 ToDoubleFunction<BenchRun.Outcome> value) {
        List<Double> r = new ArrayList<>();
        for (List<BenchRun.Outcome> round : rounds) {
            r.add(value.applyAsDouble(round.get(num)) / value.applyAsDouble(round.get(den)));
        }
        return ratios(r);
    }

    /** Ratios, one per round: "1.81x" or "1.78 / 1.87, median 1.81x". */
    static String ratios(List<Double> r) {
        if (r.size() == 1) {
            return String.format(Locale.ROOT, "%.2fx", r.get(0));
        }
        String each = r.stream().map(x -> String.format(Locale.ROOT, "%.2f", x)).collect(Collectors.joining(" / "));
        return String.format(Locale.ROOT, "%s, median %.2fx", each, median(r));
    }

    private static List<BenchRun.Outcome> runsOf(List<List<BenchRun.Outcome>> rounds, int configuration) {
        return rounds.stream().map(round -> round.get(configuration)).toList();
    }

    /** The run with the median samples/s (the lower middle one of an even count). */
    static BenchRun.Outcome medianRun(List<BenchRun.Outcome> runs) {
        List<BenchRun.Outcome> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparingDouble(BenchRun.Outcome::samplesPerSecond));
        return sorted.get((sorted.size() - 1) / 2);
    }

    /** The median of {@code values} (the mean of the middle two of an even count). */
    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}

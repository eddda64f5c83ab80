package dev.brisk.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiPredicate;
import java.util.stream.Collectors;

/**
 * Prints the benchmark's table, its ratios (thread scaling, eager vs compiled) and the runs' RESULT lines. With
 * several rounds the table shows each configuration's median run, and each ratio is computed within every round
 * (runs close in time, so the machine's drift cancels) and then its median taken. The steal column is the share of
 * the machine's CPU time the hypervisor took during each whole run (JVM start to exit, not only the measured epoch);
 * the jit column is the JIT compilers' time during the measured epoch, as a share of that epoch's core time (the
 * wall time times the threads): time the training threads may have waited for a core.
 */
final class BenchReport {
    private BenchReport() {
    }

    /** {@code rounds}: one list per round, every round running the same configurations in the same order. */
    static void print(PrintStream out, List<List<BenchRun.Outcome>> rounds, Map<Integer, Double> gemmPeak) {
        List<BenchRun.Outcome> first = rounds.get(0);
        out.printf(Locale.ROOT, "%-9s %-9s %7s %11s %8s %8s %10s %8s %8s %13s %6s %6s%n", "workload", "mode",
                "threads", "samples/s", "cpu", "GFLOP/s", "% of gemm", "test_acc", "rss_MB", "first_step_ms", "jit",
                "steal");
        for (int c = 0; c < first.size(); c++) {
            BenchRun.Outcome o = medianRun(runsOf(rounds, c));
            Double peak = gemmPeak.get(o.run().threads());
            String pct = peak == null ? "-" : String.format(Locale.ROOT, "%.0f%%", 100 * o.gflops() / peak);
            String jit = Double.isNaN(o.jitShare()) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * o.jitShare());
            out.printf(Locale.ROOT, "%-9s %-9s %7d %11.0f %8.2f %8.1f %10s %8.4f %8d %13d %6s %6s%n",
                    o.run().workload().id(), o.run().mode(), o.run().threads(), o.samplesPerSecond(),
                    o.cpuUtilisation(), o.gflops(), pct, o.testAccuracy(), o.peakRssMb(), o.firstStepMillis(), jit,
                    o.host().stealPercent());
        }
        if (rounds.size() > 1) {
            out.printf(Locale.ROOT, "(median run of %d rounds; samples/s of every round, and its steal:)%n",
                    rounds.size());
            for (int c = 0; c < first.size(); c++) {
                BenchRun run = first.get(c).run();
                List<BenchRun.Outcome> runs = runsOf(rounds, c);
                out.printf(Locale.ROOT, "  %s %s threads=%d: %s (steal %s)%n", run.workload().id(), run.mode(),
                        run.threads(), runs.stream()
                        .map(o -> String.format(Locale.ROOT, "%.0f", o.samplesPerSecond()))
                        .collect(Collectors.joining(" / ")),
                        runs.stream().map(o -> o.host().stealPercent()).collect(Collectors.joining(" / ")));
            }
        }
        out.println();
        printRatios(out, rounds, gemmPeak);
        out.println();
        for (List<BenchRun.Outcome> round : rounds) {
            for (BenchRun.Outcome o : round) {
                out.println(o.resultLine());
            }
        }
    }

    /**
     * Thread scaling and eager/compiled ratios. Each scaling line also gives how much the gemm peak measured in
     * this JVM gained from the same threads: what the machine allowed FMA-bound work at the time (on a shared
     * host, two vCPUs have given it 1.7-2.3x).
     */
    private static void printRatios(PrintStream out, List<List<BenchRun.Outcome>> rounds,
                                    Map<Integer, Double> gemmPeak) {
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
                    Double one = gemmPeak.get(1);
                    Double many = gemmPeak.get(b.threads());
                    String gemm = one == null || many == null ? ""
                            : String.format(Locale.ROOT, " (gemm peak: %.2fx)", many / one);
                    out.printf(Locale.ROOT, "scaling %s %s 1 -> %d threads: %s%s%n", a.workload().id(), a.mode(),
                            b.threads(), ratios(rounds, j, i), gemm);
                }
                if (eagerVsCompiled.test(a, b)) {
                    // step time eager / compiled = samples/s compiled / samples/s eager
                    out.printf(Locale.ROOT, "eager/compiled step time %s threads=%d: %s%n", a.workload().id(),
                            a.threads(), ratios(rounds, i, j));
                }
            }
        }
    }

    /** samples/s of configuration {@code num} over {@code den} in every round: "1.81x" or "1.78 / 1.87, median 1.81x". */
    private static String ratios(List<List<BenchRun.Outcome>> rounds, int num, int den) {
        List<Double> r = new ArrayList<>();
        for (List<BenchRun.Outcome> round : rounds) {
            r.add(round.get(num).samplesPerSecond() / round.get(den).samplesPerSecond());
        }
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

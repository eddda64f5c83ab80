package dev.brisk.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.cli.Workloads.Workload;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The bench report, from made-up outcomes: each run's percentage of the gemm peak it measured itself, and thread
 * scaling and eager/compiled ratios beside the gemm peaks' own ratios.
 */
class BenchReportTest {
    private static BenchRun.Outcome outcome(int threads, double samplesPerSecond, double gemmPeak) {
        return outcome(false, threads, samplesPerSecond, gemmPeak);
    }

    private static BenchRun.Outcome outcome(boolean eager, int threads, double samplesPerSecond, double gemmPeak) {
        BenchRun run = new BenchRun(Workload.W1, eager, threads);
        return new BenchRun.Outcome(run, samplesPerSecond, threads, 0.87, 2, 600, 900, Double.NaN, gemmPeak,
                "RESULT", HostCpu.UNKNOWN);
    }

    private static String print(List<List<BenchRun.Outcome>> rounds) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        BenchReport.print(out, rounds);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theTestColumnShowsAccuracyOrTheLossOfAWorkloadWithoutOne() {
        BenchRun.Outcome autoencoder = new BenchRun.Outcome(new BenchRun(Workload.Z3, false, 1), 30_000, 1, 0.2712, 2,
                600, 900, Double.NaN, Double.NaN, "RESULT", HostCpu.UNKNOWN);
        String out = print(List.of(List.of(outcome(1, 20_000, Double.NaN), autoencoder)));
        assertTrue(out.lines().anyMatch(l -> l.matches("workload +mode .* test +rss_MB .*")), out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("w1 ") && l.contains(" acc 0.8700 ")), out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("z3 ") && l.contains(" loss 0.2712 ")), out);
    }

    @Test
    void aMeasuredEpochTheJitHeldACoreForIsCalledWarmUp() {
        BenchRun.Outcome shortRun = new BenchRun.Outcome(new BenchRun(Workload.Z3, false, 2), 19_000, 2, 0.33, 2, 600,
                900, 0.49, Double.NaN, "RESULT", HostCpu.UNKNOWN);
        BenchRun.Outcome steady = new BenchRun.Outcome(new BenchRun(Workload.Z4, false, 2), 5_000, 2, 0.79, 2, 600,
                900, 0.03, Double.NaN, "RESULT", HostCpu.UNKNOWN);
        String out = print(List.of(List.of(shortRun, steady)));
        assertTrue(out.lines().anyMatch(l -> l.startsWith("warning: z3 compiled threads=2: the JIT compiled for 49%")),
                out);
        assertTrue(out.lines().noneMatch(l -> l.startsWith("warning: z4")), out);
    }

    @Test
    void scalingIsPrintedBesideTheGemmPeaksScaling() {
        String out = print(List.of(List.of(outcome(1, 20_000, 90.0), outcome(2, 35_000, 153.0))));
        assertTrue(out.lines().anyMatch(l -> l.equals("scaling w1 compiled 1 -> 2 threads: 1.75x (gemm peak: 1.70x)")),
                out);
    }

    @Test
    void withoutAGemmPeakOnlyTheWorkloadsScalingIsPrinted() {
        String out = print(List.of(List.of(outcome(1, 20_000, Double.NaN), outcome(2, 35_000, Double.NaN))));
        assertTrue(out.lines().anyMatch(l -> l.equals("scaling w1 compiled 1 -> 2 threads: 1.75x")), out);
    }

    @Test
    void eachRunIsDividedByTheGemmPeakItMeasured() {
        double flops = Workload.W1.trainingFlopsPerSample();
        // 20,000 samples/s against a peak that is twice the useful GFLOP/s; 35,000 against one four times them
        double one = 2 * 20_000 * flops / 1e9;
        double two = 4 * 35_000 * flops / 1e9;
        String out = print(List.of(List.of(outcome(1, 20_000, one), outcome(2, 35_000, two))));
        String peakOne = String.format(Locale.ROOT, "%.1f", one);
        String peakTwo = String.format(Locale.ROOT, "%.1f", two);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("w1") && l.contains(" 20000 ") && l.contains(peakOne)
                && l.contains(" 50% ")), out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("w1") && l.contains(" 35000 ") && l.contains(peakTwo)
                && l.contains(" 25% ")), out);
    }

    @Test
    void overRoundsTheGemmPeaksRatioIsTakenRoundByRound() {
        String out = print(List.of(
                List.of(outcome(1, 20_000, 100.0), outcome(2, 36_000, 190.0)),
                List.of(outcome(1, 10_000, 50.0), outcome(2, 19_000, 100.0)),
                List.of(outcome(1, 20_000, 100.0), outcome(2, 34_000, 170.0))));
        assertTrue(out.lines().anyMatch(l -> l.equals("scaling w1 compiled 1 -> 2 threads: 1.80 / 1.90 / 1.70,"
                + " median 1.80x (gemm peak: 1.90 / 2.00 / 1.70, median 1.90x)")), out);
        assertTrue(out.lines().anyMatch(l -> l.equals("  w1 compiled threads=2: 36000 / 19000 / 34000"
                + " (gemm 190 / 100 / 170; steal - / - / -)")), out);
    }

    @Test
    void eagerOverCompiledIsPrintedBesideTheirGemmPeaksRatio() {
        // The eager run's JVM found the host 1.5x slower: most of its 1.60x is the host's.
        String out = print(List.of(List.of(outcome(false, 1, 20_000, 150.0), outcome(true, 1, 12_500, 100.0))));
        assertTrue(out.lines().anyMatch(l -> l.equals(
                "eager/compiled step time w1 threads=1: 1.60x (gemm peak compiled/eager: 1.50x)")), out);
    }
}

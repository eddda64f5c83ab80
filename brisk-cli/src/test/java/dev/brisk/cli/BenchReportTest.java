package dev.brisk.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.cli.Workloads.Workload;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The bench report's ratios, from made-up outcomes: thread scaling beside the gemm peak's own scaling. */
class BenchReportTest {
    private static BenchRun.Outcome outcome(int threads, double samplesPerSecond) {
        BenchRun run = new BenchRun(Workload.W1, false, threads);
        return new BenchRun.Outcome(run, samplesPerSecond, threads, 0.87, 2, 600, 900, Double.NaN, "RESULT",
                HostCpu.UNKNOWN);
    }

    private static String print(Map<Integer, Double> gemmPeak) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        BenchReport.print(out, List.of(List.of(outcome(1, 20_000), outcome(2, 35_000))), gemmPeak);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void scalingIsPrintedBesideTheGemmPeaksScaling() {
        String out = print(Map.of(1, 90.0, 2, 153.0));
        assertTrue(out.lines().anyMatch(l -> l.equals("scaling w1 compiled 1 -> 2 threads: 1.75x (gemm peak: 1.70x)")),
                out);
    }

    @Test
    void withoutAGemmPeakOnlyTheWorkloadsScalingIsPrinted() {
        String out = print(Map.of());
        assertTrue(out.lines().anyMatch(l -> l.equals("scaling w1 compiled 1 -> 2 threads: 1.75x")), out);
    }
}

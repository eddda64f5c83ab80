package dev.brisk.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Prints the benchmark's table, its ratios (thread scaling, eager vs compiled) and the runs' RESULT lines. */
final class BenchReport {
    private BenchReport() {
    }

    static void print(PrintStream out, List<BenchRun.Outcome> outcomes, Map<Integer, Double> gemmPeak) {
        out.printf(Locale.ROOT, "%-9s %-9s %7s %11s %8s %8s %10s %8s %8s %13s%n", "workload", "mode", "threads",
                "samples/s", "cpu", "GFLOP/s", "% of gemm", "test_acc", "rss_MB", "first_step_ms");
        for (BenchRun.Outcome o : outcomes) {
            Double peak = gemmPeak.get(o.run().threads());
            String pct = peak == null ? "-" : String.format(Locale.ROOT, "%.0f%%", 100 * o.gflops() / peak);
            out.printf(Locale.ROOT, "%-9s %-9s %7d %11.0f %8.2f %8.1f %10s %8.4f %8d %13d%n",
                    o.run().workload().id(), o.run().mode(), o.run().threads(), o.samplesPerSecond(),
                    o.cpuUtilisation(), o.gflops(), pct, o.testAccuracy(), o.peakRssMb(), o.firstStepMillis());
        }
        out.println();
        for (BenchRun.Outcome a : outcomes) {
            for (BenchRun.Outcome b : outcomes) {
                boolean sameRun = a.run().workload() == b.run().workload() && a.run().eager() == b.run().eager();
                if (sameRun && a.run().threads() == 1 && b.run().threads() > 1) {
                    out.printf(Locale.ROOT, "scaling %s %s 1 -> %d threads: %.2fx%n", a.run().workload().id(),
                            a.run().mode(), b.run().threads(), b.samplesPerSecond() / a.samplesPerSecond());
                }
                boolean pair = a.run().workload() == b.run().workload() && a.run().threads() == b.run().threads();
                if (pair && !a.run().eager() && b.run().eager()) {
                    out.printf(Locale.ROOT, "eager/compiled step time %s threads=%d: %.2fx%n",
                            a.run().workload().id(), a.run().threads(), a.samplesPerSecond() / b.samplesPerSecond());
                }
            }
        }
        out.println();
        for (BenchRun.Outcome o : outcomes) {
            out.println(o.resultLine());
        }
    }
}

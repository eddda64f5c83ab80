package dev.brisk.cli;

import java.util.Locale;

/**
 * The one machine-readable line a run ends with, e.g.
 * {@code RESULT framework=brisk mode=compiled workload=w1 threads=2 samples_per_s=12345 cpu_util=1.93
 * test_acc=0.8850 epochs=5 peak_rss_mb=512}.
 *
 * @param framework "brisk"
 * @param mode "compiled" or "eager"
 * @param workload "w1" or "w2"
 * @param threads the resolved thread budget
 * @param samplesPerSecond training throughput of the last epoch (printed rounded to an integer)
 * @param cpuUtilisation process CPU time over wall time in the last epoch (2 decimals)
 * @param testAccuracy accuracy on the test set after training (4 decimals)
 * @param epochs epochs trained
 * @param peakRssMb peak resident set size in MiB, 0 if unknown
 */
public record ResultLine(String framework, String mode, String workload, int threads, double samplesPerSecond,
                         double cpuUtilisation, double testAccuracy, int epochs, long peakRssMb) {

    /** The pattern every RESULT line matches (for tests and scripts that parse it). */
    public static final String REGEX = "RESULT framework=\\S+ mode=(compiled|eager) workload=\\S+ threads=\\d+"
            + " samples_per_s=\\d+ cpu_util=\\d+\\.\\d{2} test_acc=\\d\\.\\d{4} epochs=\\d+ peak_rss_mb=\\d+";

    public String format() {
        return String.format(Locale.ROOT,
                "RESULT framework=%s mode=%s workload=%s threads=%d samples_per_s=%d cpu_util=%.2f test_acc=%.4f"
                        + " epochs=%d peak_rss_mb=%d",
                framework, mode, workload, threads, Math.round(samplesPerSecond), cpuUtilisation, testAccuracy,
                epochs, peakRssMb);
    }

    @Override
    public String toString() {
        return format();
    }
}

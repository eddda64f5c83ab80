package dev.brisk.cli;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one machine-readable line a run ends with, e.g.
 * {@code RESULT framework=brisk mode=compiled workload=w1 threads=2 samples_per_s=12345 cpu_util=1.93
 * test_acc=0.8850 epochs=5 peak_rss_mb=512}. A workload without an accuracy (the autoencoder) reports its test loss
 * in the same place instead: {@code test_loss=0.2712}. A language model (W4) reports its held-out loss so and adds
 * {@code tokens_per_s=} and {@code bits_per_char=} at the end.
 *
 * @param framework "brisk"
 * @param mode "compiled" or "eager"
 * @param workload "w1", "z3", ...
 * @param threads the resolved thread budget
 * @param samplesPerSecond training throughput of the last epoch (printed rounded to an integer)
 * @param cpuUtilisation process CPU time over wall time in the last epoch (2 decimals)
 * @param testMetric which figure {@code testValue} is: accuracy ({@code test_acc=}) or loss ({@code test_loss=})
 * @param testValue that figure on the test set after training (4 decimals)
 * @param epochs epochs trained
 * @param peakRssMb peak resident set size in MiB, 0 if unknown
 */
public record ResultLine(String framework, String mode, String workload, int threads, double samplesPerSecond,
                         double cpuUtilisation, TestMetric testMetric, double testValue, int epochs, long peakRssMb) {

    /**
     * The pattern every RESULT line matches (for tests and scripts that parse it): {@code test_acc=} with an
     * accuracy in [0, 1], or {@code test_loss=} with a non-negative loss.
     */
    public static final String REGEX = "RESULT framework=\\S+ mode=(compiled|eager) workload=\\S+ threads=\\d+"
            + " samples_per_s=\\d+ cpu_util=\\d+\\.\\d{2} (test_acc=\\d\\.\\d{4}|test_loss=\\d+\\.\\d{4}) epochs=\\d+"
            + " peak_rss_mb=\\d+( tokens_per_s=\\d+ bits_per_char=\\d+\\.\\d{4})?";

    /**
     * The fields a language model (W4) adds at the end of its line: its training throughput in tokens (characters)
     * per second and its held-out cross-entropy in bits per character.
     *
     * @param tokensPerSecond characters trained per second in the last epoch
     * @param bitsPerChar the held-out loss over ln 2
     * @return the fields with a leading space
     */
    static String languageModelFields(double tokensPerSecond, double bitsPerChar) {
        return String.format(Locale.ROOT, " tokens_per_s=%d bits_per_char=%.4f", Math.round(tokensPerSecond),
                bitsPerChar);
    }

    /** One {@code key=value} field of a RESULT line. */
    private static final Pattern FIELD = Pattern.compile("(\\w+)=(\\S+)");

    /** A classifier's line: {@code testAccuracy} is reported as {@code test_acc=}. */
    public ResultLine(String framework, String mode, String workload, int threads, double samplesPerSecond,
                      double cpuUtilisation, double testAccuracy, int epochs, long peakRssMb) {
        this(framework, mode, workload, threads, samplesPerSecond, cpuUtilisation, TestMetric.ACCURACY, testAccuracy,
                epochs, peakRssMb);
    }

    /** The line, fields in the order of {@link #REGEX}, independent of the default locale. */
    public String format() {
        return String.format(Locale.ROOT,
                "RESULT framework=%s mode=%s workload=%s threads=%d samples_per_s=%d cpu_util=%.2f %s=%.4f"
                        + " epochs=%d peak_rss_mb=%d",
                framework, mode, workload, threads, Math.round(samplesPerSecond), cpuUtilisation,
                testMetric.resultField(), testValue, epochs, peakRssMb);
    }

    /**
     * Reads a RESULT line written by Brisk or by a peer's twin script ({@code tools/peers}): the fields of
     * {@link #REGEX} by name, in any order, with {@code test_acc=} or {@code test_loss=}; other fields are ignored and
     * throughput may have decimals. A line that is not a RESULT line, lacks a field or has a value that does not
     * parse is an {@link IllegalArgumentException} naming the field and quoting the line.
     */
    public static ResultLine parse(String line) {
        if (!line.startsWith("RESULT ")) {
            throw new IllegalArgumentException("not a RESULT line: '" + line + "'");
        }
        Map<String, String> fields = new HashMap<>();
        Matcher m = FIELD.matcher(line);
        while (m.find()) {
            fields.putIfAbsent(m.group(1), m.group(2));
        }
        TestMetric metric = fields.containsKey(TestMetric.ACCURACY.resultField()) ? TestMetric.ACCURACY
                : TestMetric.LOSS;
        return new ResultLine(text(fields, "framework", line), text(fields, "mode", line),
                text(fields, "workload", line), (int) number(fields, "threads", line),
                number(fields, "samples_per_s", line), number(fields, "cpu_util", line), metric,
                number(fields, metric.resultField(), line), (int) number(fields, "epochs", line),
                (long) number(fields, "peak_rss_mb", line));
    }

    private static String text(Map<String, String> fields, String key, String line) {
        String value = fields.get(key);
        if (value == null) {
            throw new IllegalArgumentException("RESULT line without " + key + "=: '" + line + "'");
        }
        return value;
    }

    private static double number(Map<String, String> fields, String key, String line) {
        String value = text(fields, key, line);
        double d;
        try {
            d = Double.parseDouble(value);
        } catch (NumberFormatException e) {
            d = Double.NaN;
        }
        if (!Double.isFinite(d) || d < 0) {
            throw new IllegalArgumentException("RESULT line with " + key + "=" + value
                    + " (a non-negative number expected): '" + line + "'");
        }
        return d;
    }

    @Override
    public String toString() {
        return format();
    }
}

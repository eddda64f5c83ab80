package dev.brisk.cli;

import static dev.brisk.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.parallel.ThreadBudget;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code brisk scaling} on core's 1,000-image fixture: its pairs, its SCALING line, its usage errors. */
class ScalingCommandTest {
    private static final Path FIXTURE = Path.of("../brisk-core/src/test/resources/fashion-mnist-mini");
    private static final Pattern PAIR = Pattern.compile(
            "pair (\\d+)( \\(warm-up\\))?: 1 thread (\\d+) samples/s, 2 threads (\\d+) samples/s, ratio (\\d+\\.\\d+),"
                    + " steal (\\d+\\.\\d%|-) / (\\d+\\.\\d%|-), median step (\\d+) / (\\d+) us \\(ratio (\\d+\\.\\d+)\\),"
                    + " stalled (\\d+\\.\\d)% / (\\d+\\.\\d)%");

    @Test
    void printsEveryPairAndTheMedianRatio() {
        CliRun r = run("scaling", "--workload", "w1", "--threads", "2", "--pairs", "3", "--warmup-pairs", "1",
                "--steps", "3", "--data", FIXTURE.toString());
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        List<Matcher> pairs = lines.stream().map(PAIR::matcher).filter(Matcher::matches).toList();
        assertEquals(4, pairs.size(), r.out());
        assertEquals(" (warm-up)", pairs.get(0).group(2));
        double[] ratios = pairs.stream().skip(1).mapToDouble(m -> {
            double one = Double.parseDouble(m.group(3));
            double two = Double.parseDouble(m.group(4));
            assertTrue(one > 0 && two > 0, m.group());
            assertTrue(Double.parseDouble(m.group(8)) > 0 && Double.parseDouble(m.group(9)) > 0, m.group());
            return Double.parseDouble(m.group(5));
        }).sorted().toArray();
        double[] stepRatios = pairs.stream().skip(1).mapToDouble(m -> Double.parseDouble(m.group(10))).sorted()
                .toArray();
        String last = lines.get(lines.size() - 1);
        assertTrue(last.startsWith("SCALING framework=brisk workload=w1 threads=2 pairs=3 median_ratio="), last);
        assertEquals(ratios[1], Double.parseDouble(field(last, "median_ratio")), 0.006, last);
        assertEquals(ratios[0], Double.parseDouble(field(last, "min_ratio")), 0.006, last);
        assertEquals(ratios[2], Double.parseDouble(field(last, "max_ratio")), 0.006, last);
        assertTrue(last.endsWith(" samples_per_s_1=" + field(last, "samples_per_s_1") + " samples_per_s_2="
                + field(last, "samples_per_s_2") + " steal_pct=" + field(last, "steal_pct") + " quiet_pairs="
                + field(last, "quiet_pairs") + " quiet_median_ratio=" + field(last, "quiet_median_ratio")
                + " median_step_ratio=" + field(last, "median_step_ratio") + " stall_pct_1="
                + field(last, "stall_pct_1") + " stall_pct_2=" + field(last, "stall_pct_2")),
                "new keys after the old ones: " + last);
        assertTrue(field(last, "steal_pct").matches("\\d+\\.\\d|n/a"), last);
        assertTrue(field(last, "quiet_pairs").matches("[0-3]|n/a"), last);
        assertTrue(field(last, "quiet_median_ratio").matches("\\d+\\.\\d{3}|n/a"), last);
        assertEquals(field(last, "quiet_pairs").matches("[1-3]"), !field(last, "quiet_median_ratio").equals("n/a"),
                "a quiet median exactly when there are quiet pairs: " + last);
        assertEquals(stepRatios[1], Double.parseDouble(field(last, "median_step_ratio")), 0.006, last);
        assertTrue(field(last, "stall_pct_1").matches("\\d+\\.\\d") && field(last, "stall_pct_2").matches("\\d+\\.\\d"),
                last);
        assertTrue(r.out().contains("of 384 samples each"), r.out()); // 3 steps of 128
        assertEquals(ThreadBudget.resolve().threads(), ThreadBudget.threads(), "budget left as it was");
    }

    @Test
    void withKernelsEveryKernelsTimeIsPrintedForBothBudgets() {
        CliRun r = run("scaling", "--workload", "w1", "--threads", "2", "--pairs", "2", "--warmup-pairs", "0",
                "--steps", "3", "--kernels", "--data", FIXTURE.toString());
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        int header = lines.indexOf("kernels (median call per half, median over 2 pairs):");
        assertTrue(header >= 0, r.out());
        Pattern row = Pattern.compile(" +(\\d+\\.\\d) us +(\\d+\\.\\d) us +(\\d+\\.\\d\\d)x  (.+)");
        List<Matcher> rows = lines.stream().skip(header + 2).map(row::matcher).takeWhile(Matcher::matches).toList();
        // W1's compiled step: 23 kernel calls (each relu gradient runs in the gemm that makes its dy), each its own
        // call site, then the line of sums.
        assertEquals(24, rows.size(), r.out());
        // The first layer's product (its layer's name depends on the models made before in this JVM).
        assertTrue(rows.stream().anyMatch(m -> m.group(4).startsWith("MATMUL+BINARY(ADD)+UNARY(RELU) dense")
                && m.group(4).endsWith(" (128, 784), (784, 512), (512,) -> (128, 512)")), r.out());
        assertEquals("all kernels (sum of the medians)", rows.get(rows.size() - 1).group(4));
        assertTrue(lines.get(lines.size() - 1).startsWith("SCALING "), r.out());
    }

    @Test
    void aHalfIsQuietBelowTwoPercentStolenAndNeverWhenUnknown() {
        assertTrue(new ScalingCommand.Half(1000, new HostCpu(200, 3), 1e6, 0, null).quiet()); // 1.5%
        assertFalse(new ScalingCommand.Half(1000, new HostCpu(200, 4), 1e6, 0, null).quiet()); // 2.0%
        assertFalse(new ScalingCommand.Half(1000, new HostCpu(0, 0), 1e6, 0, null).quiet()); // shorter than a jiffy
        assertFalse(new ScalingCommand.Half(1000, HostCpu.UNKNOWN, 1e6, 0, null).quiet());
    }

    @Test
    void rejectsOneThreadAndEmptyCounts() {
        CliRun one = run("scaling", "--threads", "1", "--data", FIXTURE.toString());
        assertEquals(2, one.code());
        assertTrue(one.err().contains("--threads must be at least 2 but was 1"), one.err());
        CliRun none = run("scaling", "--threads", "2", "--pairs", "0", "--data", FIXTURE.toString());
        assertEquals(2, none.code());
        assertTrue(none.err().contains("--pairs must be at least 1 but was 0"), none.err());
    }

    private static String field(String line, String key) {
        Matcher m = Pattern.compile(key + "=(\\S+)").matcher(line);
        assertTrue(m.find(), key + " in " + line);
        return m.group(1);
    }
}

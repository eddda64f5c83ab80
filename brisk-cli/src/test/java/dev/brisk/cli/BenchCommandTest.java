package dev.brisk.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code brisk bench} runs each configuration in a child JVM and reports it (on the 1,000-image fixture). */
class BenchCommandTest {
    private static final Path FIXTURE = Path.of("../brisk-core/src/test/resources/fashion-mnist-mini");

    @Test
    void benchRunsChildJvmsInRoundsAndPrintsMediansRatiosAndResultLines() {
        PrintStream saved = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int code;
        try (PrintStream capture = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
            System.setOut(capture);
            code = BriskCommand.run(new String[] {"bench", "--workloads", "w1", "--modes", "compiled,eager",
                    "--threads", "1", "--epochs", "1", "--limit", "256", "--skip-gemm", "--repeat", "2", "--data",
                    FIXTURE.toString()}, capture, System.err);
        } finally {
            System.setOut(saved);
        }
        String out = buf.toString(StandardCharsets.UTF_8);
        System.out.print(out);
        assertEquals(0, code, out);
        List<String> results = out.lines().filter(l -> l.startsWith("RESULT")).toList();
        assertEquals(4, results.size(), "two configurations x two rounds, at the end: " + out);
        for (String r : results) {
            assertTrue(r.matches(ResultLine.REGEX), r);
            assertTrue(r.contains(" workload=w1 threads=1 "), r);
        }
        String steal = "(\\d+\\.\\d%|-)";
        String jit = "\\d+\\.\\d%";
        assertTrue(out.lines().anyMatch(l -> l.matches("workload +mode .* first_step_ms +jit +steal")),
                "header: " + out);
        assertTrue(out.lines().anyMatch(l -> l.matches("w1 +compiled +1 +\\d+ .* " + jit + " +" + steal)),
                "table row for compiled");
        assertTrue(out.lines().anyMatch(l -> l.matches("w1 +eager +1 +\\d+ .* " + jit + " +" + steal)),
                "table row for eager");
        assertTrue(out.contains("(median run of 2 rounds; samples/s of every round, its gemm and its steal:)"), out);
        assertTrue(out.lines().anyMatch(l -> l.matches(
                "  w1 compiled threads=1: \\d+ / \\d+ \\(gemm - / -; steal " + steal + " / " + steal + "\\)")), out);
        assertTrue(out.lines().anyMatch(l -> l.matches("eager/compiled step time w1 threads=1: "
                + "\\d+\\.\\d\\d / \\d+\\.\\d\\d, median \\d+\\.\\d\\dx")), out);
    }

    @Test
    void unknownModeIsAUsageError() {
        int code = BriskCommand.run(new String[] {"bench", "--modes", "fast"}, System.out, System.err);
        assertEquals(2, code);
    }
}

package dev.brisk.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.cli.Workloads.Workload;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The side-by-side table of Brisk and the PyTorch twins, from made-up outcomes: medians over rounds, the ratio
 * taken round by round, each one's test figure and RSS, and the twins' RESULT lines after Brisk's.
 */
class PeerTableTest {
    private static BenchRun.Outcome brisk(Workload w, boolean eager, int threads, double samples, double test,
                                          long rss, double gemmPeak) {
        return new BenchRun.Outcome(new BenchRun(w, eager, threads), samples, threads, test, 2, rss, 900, Double.NaN,
                gemmPeak, "RESULT framework=brisk " + w.id() + " " + samples, HostCpu.UNKNOWN);
    }

    private static PeerRun.Outcome twin(Workload w, int threads, double samples, double test, long rss) {
        ResultLine r = new ResultLine("pytorch-1.13.1+cpu", "eager", w.id(), threads, samples, threads,
                w.testMetric(), test, 2, rss);
        return new PeerRun.Outcome(new PeerRun(w, threads), r, r.format(), HostCpu.UNKNOWN);
    }

    private static String print(List<List<BenchRun.Outcome>> rounds, List<List<PeerRun.Outcome>> peers,
                                boolean inRounds) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        BenchReport.print(out, rounds, peers, inRounds);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static String row(String out, String prefix) {
        return out.lines().filter(l -> l.startsWith(prefix)).reduce((a, b) -> b).orElseThrow(() ->
                new AssertionError("no line starting with '" + prefix + "' in:\n" + out));
    }

    @Test
    void medianSamplesRatioRoundByRoundTestAndRssOfEachAndPercentOfGemm() {
        double flops = Workload.Z1.trainingFlopsPerSample();
        double peakAtHalf = 2 * 900 * flops / 1e9; // the median compiled run reaches half of its gemm peak
        String out = print(List.of(
                List.of(brisk(Workload.Z1, false, 2, 900, 0.88, 700, peakAtHalf),
                        brisk(Workload.Z1, true, 2, 800, 0.87, 900, Double.NaN)),
                List.of(brisk(Workload.Z1, false, 2, 1000, 0.89, 710, peakAtHalf),
                        brisk(Workload.Z1, true, 2, 850, 0.86, 950, Double.NaN)),
                List.of(brisk(Workload.Z1, false, 2, 600, 0.85, 705, peakAtHalf),
                        brisk(Workload.Z1, true, 2, 500, 0.85, 990, Double.NaN))),
                List.of(List.of(twin(Workload.Z1, 2, 1000, 0.8811, 412)),
                        List.of(twin(Workload.Z1, 2, 800, 0.8800, 420)),
                        List.of(twin(Workload.Z1, 2, 500, 0.8790, 415))), true);
        assertTrue(out.contains("side by side with pytorch-1.13.1+cpu (samples/s: medians of 3 rounds;"
                + " compiled/pytorch: the median of each round's ratio; test and rss: of the median run):"), out);
        assertTrue(out.lines().anyMatch(l -> l.matches("workload +threads +compiled +eager +pytorch"
                + " +compiled/pytorch +test_compiled +test_eager +test_pytorch +rss_compiled +rss_eager"
                + " +rss_pytorch +gemm%_compiled +gemm%_eager")), out);
        // compiled/pytorch round by round: 0.90, 1.25, 1.20: median 1.20 (the ratio of the medians would be 1.125)
        assertEquals(List.of("z1", "2", "900", "800", "800", "1.20x", "acc", "0.8800", "acc", "0.8700", "acc",
                "0.8800", "700", "900", "420", "50%", "-"), List.of(row(out, "z1 ").split(" +")));
        assertTrue(out.contains("compiled/pytorch z1 threads=2: 0.90 / 1.25 / 1.20, median 1.20x"), out);
    }

    @Test
    void aModeNotRunShowsADashAndTheTwinsResultLinesFollowBrisksOfEachRound() {
        String out = print(List.of(List.of(brisk(Workload.Z3, true, 1, 20_000, 0.0731, 500, Double.NaN))),
                List.of(List.of(twin(Workload.Z3, 1, 25_000, 0.0712, 300))), true);
        assertEquals(List.of("z3", "1", "-", "20000", "25000", "-", "-", "loss", "0.0731", "loss", "0.0712", "-",
                "500", "300", "-", "-"), List.of(row(out, "z3 ").split(" +")));
        List<String> results = out.lines().filter(l -> l.startsWith("RESULT")).toList();
        assertEquals(2, results.size(), out);
        assertTrue(results.get(0).startsWith("RESULT framework=brisk "), out);
        assertTrue(results.get(1).matches(ResultLine.REGEX) && results.get(1).contains("framework=pytorch-"), out);
    }

    @Test
    void twinsReadFromAFileAreComparedByTheirMedians() {
        String out = print(List.of(
                List.of(brisk(Workload.W1, false, 1, 900, 0.88, 700, Double.NaN)),
                List.of(brisk(Workload.W1, false, 1, 1000, 0.88, 700, Double.NaN)),
                List.of(brisk(Workload.W1, false, 1, 600, 0.88, 700, Double.NaN))),
                List.of(List.of(twin(Workload.W1, 1, 450, 0.87, 400))), false);
        assertTrue(out.contains("(samples/s: medians of 3 rounds and 1 read; compiled/pytorch: the ratio of the"
                + " medians;"), out);
        assertEquals("2.00x", row(out, "w1 ").split(" +")[5], out);
        assertTrue(out.lines().noneMatch(l -> l.startsWith("compiled/pytorch w1")), out);
    }
}

package dev.brisk.cli;

import static dev.brisk.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.plot.HistoryPlot;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One tiny real run on core's 1,000-image fixture (surefire's working directory is the brisk-cli module). */
class TrainEndToEndTest {
    private static final Path FIXTURE = Path.of("../brisk-core/src/test/resources/fashion-mnist-mini");

    @Test
    void trainsW1AndEndsWithOneResultLine() {
        assertTrue(Files.isDirectory(FIXTURE), FIXTURE.toAbsolutePath().toString());
        CliRun r = run("train", "--workload", "w1", "--epochs", "1", "--limit", "512", "--seed", "7",
                "--data", FIXTURE.toString(), "--gemm-peak");
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        List<String> results = lines.stream().filter(l -> l.startsWith("RESULT")).toList();
        assertEquals(1, results.size(), r.out());
        String result = results.get(0);
        assertEquals(result, lines.get(lines.size() - 1), "RESULT is the last line");
        assertTrue(result.matches(ResultLine.REGEX), result);
        assertTrue(result.startsWith("RESULT framework=brisk mode=compiled workload=w1 threads="), result);
        assertTrue(result.contains(" epochs=1 "), result);
        assertFalse(result.contains("samples_per_s=0 "), result);
        double acc = Double.parseDouble(result.replaceAll(".* test_acc=(\\S+) .*", "$1"));
        assertTrue(acc > 0.1, "better than chance after one epoch on 512 samples: " + acc);
        String timing = lines.stream().filter(l -> l.startsWith("TIMING ")).findFirst().orElseThrow();
        for (String field : new String[] {"gemm_square_gflops", "gemm_mlp_gflops"}) {
            double gflops = Double.parseDouble(timing.replaceAll(".* " + field + "=(\\S+).*", "$1"));
            assertTrue(gflops > 0.1, "--gemm-peak measures " + field + " after training: " + timing);
        }
    }

    private static double testAccuracy(CliRun r) {
        String result = r.out().lines().filter(l -> l.startsWith("RESULT")).findFirst().orElseThrow();
        return Double.parseDouble(result.replaceAll(".* test_acc=(\\S+) .*", "$1"));
    }

    @Test
    void thePipelineTrainsLikeTheArraysWithTheSameSeed() {
        String[] args = {"train", "--workload", "w2", "--epochs", "1", "--limit", "256", "--seed", "3",
            "--verbose", "0", "--data", FIXTURE.toString()};
        CliRun arrays = run(args);
        String[] piped = java.util.Arrays.copyOf(args, args.length + 1);
        piped[args.length] = "--pipeline";
        CliRun pipeline = run(piped);
        assertEquals(0, pipeline.code(), pipeline.err());
        assertTrue(pipeline.out().contains(" through the input pipeline"), pipeline.out());
        // Same batches, same weights: the same accuracy (to a prediction, should the machine be so busy that
        // AUTOTUNE takes a compute thread and the kernels' sums are split differently).
        assertEquals(testAccuracy(arrays), testAccuracy(pipeline), 0.006);
    }

    @Test
    void writesTensorBoardEventsAndACurvesPng(@TempDir Path tmp) throws IOException {
        Path logs = tmp.resolve("tb");
        Path png = tmp.resolve("plots/curves.png");
        CliRun r = run("train", "--workload", "w1", "--epochs", "2", "--limit", "256", "--seed", "7", "--verbose", "0",
                "--data", FIXTURE.toString(), "--tensorboard", logs.toString(), "--update-freq", "1",
                "--plot", png.toString());
        assertEquals(0, r.code(), r.err());
        for (String run : List.of("train", "validation")) {
            try (Stream<Path> files = Files.list(logs.resolve(run))) {
                List<Path> events = files.toList();
                assertEquals(1, events.size(), run + ": " + events);
                String name = events.get(0).getFileName().toString();
                assertTrue(name.matches("events\\.out\\.tfevents\\.\\d{10}\\..+"), name);
                assertTrue(Files.size(events.get(0)) > 100, name);
            }
        }
        BufferedImage img = ImageIO.read(png.toFile());
        assertEquals(2 * HistoryPlot.PANEL_WIDTH, img.getWidth(), "loss and accuracy");
        assertEquals(HistoryPlot.PANEL_HEIGHT, img.getHeight());
        assertTrue(r.out().contains("training curves saved to " + png), r.out());
        assertTrue(r.out().contains("tensorboard --logdir " + logs), r.out());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.get(lines.size() - 1).startsWith("RESULT"), "RESULT is still the last line");
    }

    @Test
    void profileWritesATraceAndPrintsWhereTheTimeWent(@TempDir Path tmp) throws IOException {
        Path trace = tmp.resolve("w1.json");
        CliRun r = run("train", "--workload", "w1", "--epochs", "1", "--limit", "512", "--seed", "7", "--verbose", "2",
                "--data", FIXTURE.toString(), "--profile", trace.toString(), "--profile-steps", "2-3");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Profile of 2 compiled training steps (steps 2-3)"), r.out());
        assertTrue(r.out().contains("Top ops by total time") && r.out().contains("MATMUL"), r.out());
        assertTrue(r.out().contains("cpu_util: ") && r.out().contains("input_wait: "), r.out());
        String json = Files.readString(trace); // core's tests parse traces; here: it is the run's trace
        assertTrue(json.startsWith("{\"traceEvents\":["), json);
        long kernels = json.lines().filter(l -> l.contains("\"cat\":\"kernel\"")).count();
        assertTrue(kernels > 0 && kernels % 2 == 0, "the same kernels in each of two steps: " + kernels);
        assertTrue(r.out().lines().toList().getLast().startsWith("RESULT"), "RESULT stays the last line");
    }

    @Test
    void withTensorBoardTheProfileTraceGoesToItsProfilePlugin(@TempDir Path tmp) throws IOException {
        Path trace = tmp.resolve("w1.json");
        Path logs = tmp.resolve("tb");
        CliRun r = run("train", "--workload", "w1", "--epochs", "1", "--limit", "512", "--seed", "7", "--verbose", "0",
                "--data", FIXTURE.toString(), "--profile", trace.toString(), "--profile-steps", "2-3",
                "--tensorboard", logs.toString());
        assertEquals(0, r.code(), r.err());
        List<Path> exported;
        try (Stream<Path> files = Files.walk(logs.resolve("plugins/profile"))) {
            exported = files.filter(f -> f.getFileName().toString().endsWith(".trace.json.gz")).toList();
        }
        assertEquals(1, exported.size(), exported.toString());
        assertTrue(exported.get(0).getParent().getFileName().toString().matches("\\d{4}(_\\d{2}){5}"),
                exported.toString());
        try (java.io.InputStream in = new java.util.zip.GZIPInputStream(Files.newInputStream(exported.get(0)))) {
            assertEquals(Files.readString(trace), new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void missingDataDirIsOneLineAndExitCodeOne(@TempDir Path tmp) {
        Path missing = tmp.resolve("no-such-dir");
        CliRun r = run("train", "--workload", "w1", "--data", missing.toString());
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().contains(missing.toString()), r.err());
        assertTrue(r.err().contains("dataset-fashion-mnist"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
        assertFalse(r.out().contains("RESULT"), r.out());
    }
}

package dev.brisk.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.cli.Workloads.Workload;
import dev.brisk.data.FashionMnist;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.profile.ProfileWindow;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TrainOptionsTest {
    @AfterEach
    void resetBudget() {
        ThreadBudget.reset();
    }

    private static TrainCommand parse(String... args) {
        return (TrainCommand) BriskCommand.parse(args);
    }

    /** Runs the command line, returning exit code and stderr; never trains (only usage errors are passed). */
    private static Run execute(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = BriskCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    record Run(int code, String out, String err) {
    }

    @Test
    void w1Defaults() {
        TrainCommand t = parse("train", "--workload", "w1");
        assertEquals(Workload.W1, t.workload);
        assertEquals(5, t.effectiveEpochs());
        assertEquals(128, t.effectiveBatchSize());
        assertEquals(1, t.verbose);
        assertEquals("compiled", t.mode());
        assertEquals(FashionMnist.DEFAULT_DIR, t.data);
        assertNull(t.threads);
        assertNull(t.limit);
        assertNull(t.seed);
        assertNull(t.tensorboard);
        assertNull(t.plot);
        assertEquals(1, t.histogramFreq);
        assertEquals(100, t.updateFreq);
    }

    @Test
    void tensorBoardAndPlotOptions() {
        TrainCommand t = parse("train", "--workload", "w1", "--tensorboard", "/tmp/tb", "--histogram-freq", "0",
                "--update-freq", "10", "--plot", "/tmp/curves.png");
        assertEquals(Path.of("/tmp/tb"), t.tensorboard);
        assertEquals(0, t.histogramFreq);
        assertEquals(10, t.updateFreq);
        assertEquals(Path.of("/tmp/curves.png"), t.plot);
    }

    @Test
    void w2DefaultsToThreeEpochs() {
        TrainCommand t = parse("train", "--workload", "w2");
        assertEquals(Workload.W2, t.workload);
        assertEquals(3, t.effectiveEpochs());
    }

    @Test
    void explicitOptions() {
        TrainCommand t = parse("train", "--workload", "W2", "--epochs", "1", "--eager", "--data", "/tmp/fm",
                "--batch-size", "64", "--seed", "42", "--limit", "512", "--verbose", "2", "--threads", "3");
        assertEquals(Workload.W2, t.workload);
        assertEquals(1, t.effectiveEpochs());
        assertEquals("eager", t.mode());
        assertEquals(Path.of("/tmp/fm"), t.data);
        assertEquals(64, t.batchSize);
        assertEquals(42L, t.seed);
        assertEquals(512, t.limit);
        assertEquals(2, t.verbose);
        assertEquals(3, t.threads);
    }

    @Test
    void threadsSetsTheBudget() {
        TrainCommand t = parse("train", "--workload", "w1", "--threads", "3");
        t.applySettings();
        ThreadBudget.Resolved r = ThreadBudget.resolve();
        assertEquals(3, r.threads());
        assertEquals("API", r.source());
    }

    @Test
    void invalidWorkloadIsAUsageErrorNamingTheValidOnes() {
        Run r = execute("train", "--workload", "w9");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("w9"), r.err());
        assertTrue(r.err().contains("w1, w2"), r.err());
        assertTrue(r.err().contains("Usage:"), r.err());
    }

    @Test
    void theModelZooIsAcceptedWithItsOwnDefaultEpochs() {
        TrainCommand t = parse("train", "--workload", "z1");
        assertEquals(Workload.Z1, t.workload);
        assertEquals(2, t.effectiveEpochs());
        assertEquals(Workload.Z4, parse("train", "--workload", "Z4").workload);
        Run r = execute("train", "--workload", "nope");
        assertTrue(r.err().contains("w1, w2, z1, z2, z3, z4, w3"), r.err());
    }

    @Test
    void missingWorkloadIsAUsageError() {
        Run r = execute("train");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--workload"), r.err());
    }

    @Test
    void outOfRangeValuesAreUsageErrors() {
        for (String[] args : new String[][] {
                {"train", "--workload", "w1", "--epochs", "0"},
                {"train", "--workload", "w1", "--threads", "0"},
                {"train", "--workload", "w1", "--threads", "100000"},
                {"train", "--workload", "w1", "--batch-size", "-1"},
                {"train", "--workload", "w1", "--limit", "0"},
                {"train", "--workload", "w1", "--verbose", "3"},
                {"train", "--workload", "w1", "--histogram-freq", "-1"},
                {"train", "--workload", "w1", "--update-freq", "-2"},
                {"train", "--workload", "w1", "--plot", System.getProperty("java.io.tmpdir")},
                {"train", "--workload", "w1", "--epochs", "many"},
                {"train", "--workload", "w4", "--window-stride", "0"},
                {"train", "--workload", "w4", "--pipeline"},
                {"train", "--workload", "w4-gru", "--replicas", "2"},
                {"train", "--workload", "w1", "--no-such-option"}}) {
            Run r = execute(args);
            assertEquals(2, r.code(), String.join(" ", args) + " -> " + r.err());
            assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
        }
    }

    /** Each pair of options that do not go together is refused with a message naming both and why. */
    @Test
    void conflictingOptionsAreNamedUsageErrors() {
        String tmp = System.getProperty("java.io.tmpdir");
        String[][] cases = {
            {"--workload and --model do not go together: train a workload or your model",
                "train", "--workload", "w1", "--model", "m.json"},
            {"--label, --fill-value, --indicate-missing, --lookup-column, --hash-column, --normalize, --loss and"
                + " --patience go with --model", "train", "--workload", "w1", "--label", "y"},
            {"Invalid value for option '--onnx': " + tmp + " is a directory; give a file name such as",
                "train", "--workload", "w1", "--onnx", tmp},
            {"--pipeline feeds Fashion-MNIST images; w4 trains on windows of text; run it without --pipeline",
                "train", "--workload", "w4", "--pipeline"},
            {"--overlap overlaps the gradient exchange of --replicas or --master; one process exchanges nothing",
                "train", "--workload", "w1", "--overlap"},
            {"--replicas and --master do not go together: replicas share this JVM, --master trains on Spark"
                + " workers (--workers N)", "train", "--workload", "w1", "--master", "local[2]", "--replicas", "2"},
            {"--onnx does not go with --master: the model trained on Spark stays with the workers",
                "train", "--workload", "w1", "--master", "local[2]", "--onnx", "m.onnx"},
            {"--save keeps the Fashion-MNIST workloads' models; w4's positional embedding (Layers.positions())"
                + " has no Keras class to save as yet", "train", "--workload", "w4", "--save", "m.keras"},
            {"--master trains the Fashion-MNIST workloads; w4 trains on one JVM's compute pool",
                "train", "--workload", "w4", "--master", "local[2]"},
            {"--checkpoint needs --master (checkpoints are written by the Spark workers)",
                "train", "--workload", "w1", "--checkpoint", "ckpt"},
            {"--replicas and --master train from arrays with compiled steps: leave out --pipeline, --profile,"
                + " --tensorboard and --eager", "train", "--workload", "w1", "--replicas", "2", "--eager"},
            {"--model needs --data: a CSV, NPY or IDX file, or a directory of images",
                "train", "--model", "m.json"},
            {"--missing needs --fill-value X (the value missing cells are read as)",
                "train", "--model", "m.json", "--data", "d.csv", "--missing", "NA"},
            {"--pipeline, --replicas, --master, --limit and --profile go with --workload",
                "train", "--model", "m.json", "--data", "d.csv", "--limit", "5"}};
        for (String[] c : cases) {
            String[] args = java.util.Arrays.copyOfRange(c, 1, c.length);
            Run r = execute(args);
            assertEquals(2, r.code(), String.join(" ", args) + " -> " + r.err());
            assertTrue(r.err().contains(c[0]), String.join(" ", args) + " -> " + r.err());
        }
    }

    @Test
    void profileOptions() {
        TrainCommand t = parse("train", "--workload", "w1", "--profile", "/tmp/t.json", "--profile-steps", "20-24");
        assertEquals(Path.of("/tmp/t.json"), t.profile);
        assertEquals(new ProfileWindow(20, 24), t.profileSteps);
        assertNull(parse("train", "--workload", "w1", "--profile", "t.json").profileSteps, "default window");
        assertNull(parse("train", "--workload", "w1").profile);
    }

    @Test
    void badProfileStepsAreUsageErrors() {
        for (String steps : new String[] {"5", "a-b", "9-3", "0-4", "1-2-3", "-"}) {
            Run r = execute("train", "--workload", "w1", "--profile", "t.json", "--profile-steps", steps);
            assertEquals(2, r.code(), steps + " -> " + r.err());
            assertTrue(r.err().contains("--profile-steps"), r.err());
        }
        Run r = execute("train", "--workload", "w1", "--profile-steps", "1-5");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("--profile-steps needs --profile"), r.err());
    }

    @Test
    void noSubcommandIsAUsageError() {
        assertEquals(2, execute().code());
        assertEquals(2, execute("frobnicate").code());
    }

    @Test
    void helpExitsZero() {
        Run r = execute("train", "--help");
        assertEquals(0, r.code());
        assertTrue(r.out().contains("--workload"), r.out());
    }

    @Test
    void anAbsurdThreadBudgetIsOneClearLine() {
        Run r = execute("train", "--workload", "w1", "--threads", "100000");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("--threads") && r.err().contains("at most"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
    }
}

package dev.brisk.callbacks;

import static dev.brisk.callbacks.StubTarget.logs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.Fit;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** The progress bar's lines, driven directly and through fit. */
class ProgressBarTest {
    private static final String FULL_BAR = "[" + "=".repeat(30) + "]";

    /** Runs two epochs of four steps through a bar and returns what it printed. */
    private static String drive(int verbose, boolean interactive) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        ProgressBar pb = new ProgressBar(ps, interactive);
        StubTarget t = new StubTarget();
        t.stats = new EpochStats(64, 0.5, 1.0, 0.05, 2);
        pb.setModel(t);
        pb.setParams(new TrainingParams(2, 4, 64, verbose));
        pb.onTrainBegin(logs());
        for (int e = 0; e < 2; e++) {
            pb.onEpochBegin(e, logs());
            for (int b = 0; b < 4; b++) {
                pb.onTrainBatchBegin(b, logs());
                pb.onTrainBatchEnd(b, logs("loss", 0.5, "accuracy", 0.75));
            }
            pb.onEpochEnd(e, logs("loss", 0.5, "accuracy", 0.75, "val_loss", 0.625, "cpu_util", 1.0,
                    "input_wait", 0.1));
        }
        pb.onTrainEnd(logs());
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void verboseOneNonInteractivePrintsOneFinalLinePerEpoch() {
        String out = drive(1, false);
        String line = "4/4 " + FULL_BAR + " - 0s 125ms/step - loss: 0.5000 - accuracy: 0.7500 - val_loss: 0.6250"
                + " - cpu_util: 1.0000 - input_wait: 0.1000 - 128 samples/s";
        assertEquals("Epoch 1/2\n" + line + "\nEpoch 2/2\n" + line + "\n", out);
        assertFalse(out.contains("\r"), "no carriage returns in logs");
    }

    @Test
    void verboseTwoPrintsOneLinePerEpochWithoutTheBar() {
        String out = drive(2, false);
        String line = "4/4 - 0s 125ms/step - loss: 0.5000 - accuracy: 0.7500 - val_loss: 0.6250"
                + " - cpu_util: 1.0000 - input_wait: 0.1000 - 128 samples/s";
        assertEquals("Epoch 1/2\n" + line + "\nEpoch 2/2\n" + line + "\n", out);
        assertEquals(out, drive(2, true), "verbose 2 ignores the terminal");
    }

    @Test
    void anEpochOfUnknownLengthShowsUnknownThenTellsTheNextEpochsTheirTotal() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ProgressBar pb = new ProgressBar(new PrintStream(bytes, true, StandardCharsets.UTF_8), true);
        StubTarget t = new StubTarget();
        t.stats = new EpochStats(64, 0.5, 1.0, 0.05, 2);
        pb.setModel(t);
        // a pipeline of unknown length: no step count, and the first batch's size (16) as the sample count
        pb.setParams(new TrainingParams(2, 0, 16, 1));
        pb.onTrainBegin(logs());
        for (int e = 0; e < 2; e++) {
            pb.onEpochBegin(e, logs());
            for (int b = 0; b < 4; b++) {
                pb.onTrainBatchEnd(b, logs("loss", 0.5));
            }
            pb.onEpochEnd(e, logs("loss", 0.5));
        }
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.startsWith("Epoch 1/2\n\r      1/Unknown - 0s - loss: 0.5000 - "), out); // Keras pads to 7
        assertTrue(out.contains("\r4/4 " + FULL_BAR + " - 0s 125ms/step - loss: 0.5000 - 128 samples/s\nEpoch 2/2"),
                out);
        assertTrue(out.contains("\r4/4 " + FULL_BAR + " - ETA: 0s - loss: 0.5000"), "epoch 2 knows its total: " + out);
        assertFalse(out.contains("/0"), out);
    }

    @Test
    void verboseZeroPrintsNothing() {
        assertEquals("", drive(0, false));
        assertEquals("", drive(0, true));
    }

    @Test
    void interactiveRedrawsInPlace() {
        String out = drive(1, true);
        assertTrue(out.startsWith("Epoch 1/2\n\r1/4 [=======>......................] - ETA: 0s - loss: 0.5000"
                + " - accuracy: 0.7500 - "), out);
        assertTrue(out.contains("\r4/4 " + FULL_BAR + " - ETA: 0s - loss: 0.5000"), out);
        assertTrue(out.contains("\r4/4 " + FULL_BAR + " - 0s 125ms/step - loss: 0.5000"), out);
        assertTrue(out.contains("samples/s"), out);
        assertEquals(2, out.split("\n", -1).length - 3, "two epoch lines end in newlines: " + out);
    }

    @Test
    void numbersUseADotWhateverTheLocale() {
        Locale saved = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            String out = drive(2, false);
            assertTrue(out.contains("loss: 0.5000"), out);
            assertTrue(out.contains("cpu_util: 1.0000"), out);
        } finally {
            Locale.setDefault(saved);
        }
    }

    @Test
    void stepCounterIsPadded() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ProgressBar pb = new ProgressBar(new PrintStream(bytes, true, StandardCharsets.UTF_8), true);
        pb.setModel(new StubTarget());
        pb.setParams(new TrainingParams(1, 12, 100, 1));
        pb.onEpochBegin(0, logs());
        pb.onTrainBatchEnd(0, logs("loss", 1.0));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("\r 1/12 ["), out);
    }

    private static String captureFit(int verbose) {
        RandomSeed.set(3);
        Sequential m = Sequential.of(Layers.input(2), Layers.dense(3));
        m.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        Tensor x = Tensor.of(new float[32], 16, 2);
        Tensor y = Tensor.of(new float[16], 16);
        PrintStream saved = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
            m.fit(x, y, Fit.epochs(2).batchSize(4).validation(x, y).verbose(verbose));
        } finally {
            System.setOut(saved);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void fitWithVerboseOnePrintsEpochsStepsLossAndThroughput() {
        String out = captureFit(1);
        assertTrue(out.contains("Epoch 1/2\n"), out);
        assertTrue(out.contains("Epoch 2/2\n"), out);
        assertTrue(out.contains("4/4 "), out);
        assertTrue(out.contains("loss: "), out);
        assertTrue(out.contains("accuracy: "), out);
        assertTrue(out.contains("val_loss: "), out);
        assertTrue(out.contains("samples/s"), out);
        assertTrue(out.contains("cpu_util: "), out);
        assertTrue(out.contains("input_wait: "), out);
        assertTrue(out.contains("thread budget"), out);
        List<String> epochLines = out.lines().filter(l -> l.contains("ms/step")).toList();
        assertEquals(2, epochLines.size(), out);
    }

    @Test
    void fitWithVerboseTwoPrintsOneLinePerEpoch() {
        String out = captureFit(2);
        assertTrue(out.contains("Epoch 1/2\n"), out);
        List<String> epochLines = out.lines().filter(l -> l.startsWith("4/4 - ")).toList();
        assertEquals(2, epochLines.size(), out);
        for (String l : epochLines) {
            assertTrue(l.contains("loss: ") && l.contains("val_accuracy: ") && l.contains("samples/s"), l);
            assertFalse(l.contains("["), l);
        }
    }

    @Test
    void fitWithVerboseZeroPrintsNothing() {
        assertEquals("", captureFit(0));
    }
}

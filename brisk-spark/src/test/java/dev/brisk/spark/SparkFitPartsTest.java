package dev.brisk.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.BackupAndRestore;
import dev.brisk.callbacks.CsvLogger;
import dev.brisk.callbacks.EarlyStopping;
import dev.brisk.callbacks.LambdaCallback;
import dev.brisk.callbacks.TerminateOnNaN;
import dev.brisk.losses.Losses;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Model;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** SparkFit's parts that need no cluster: the control messages, which callbacks need steps, what is refused. */
class SparkFitPartsTest {
    @Test
    void controlMessagesRoundTrip() throws IOException {
        Map<String, Double> logs = new LinkedHashMap<>();
        logs.put("loss", 0.25);
        logs.put("accuracy", Double.NaN);
        float[][] weights = {{1f, -2.5f, Float.MIN_VALUE}, {}};
        ControlMessages.Event e = ControlMessages.decodeEvent(ControlMessages.encode(
                new ControlMessages.Event(ControlMessages.EPOCH_END, 3, 7, logs, weights)));
        assertEquals(ControlMessages.EPOCH_END, e.kind());
        assertEquals(3, e.epoch());
        assertEquals(7, e.batch());
        assertEquals(logs, e.logs());
        assertEquals(List.of("loss", "accuracy"), List.copyOf(e.logs().keySet()), "the logs keep their order");
        assertArrayEquals(weights[0], e.weights()[0]);
        assertEquals(0, e.weights()[1].length);
        assertNull(ControlMessages.decodeEvent(ControlMessages.encode(
                new ControlMessages.Event(ControlMessages.HELLO, 0, 5, Map.of(), null))).weights());
        ControlMessages.Reply r = ControlMessages.decodeReply(ControlMessages.encode(
                new ControlMessages.Reply(true, true, 5e-4f)));
        assertEquals(new ControlMessages.Reply(true, true, 5e-4f), r);
        assertThrows(IOException.class, () -> ControlMessages.decodeEvent(new byte[] {9, 0, 0, 0, 0}));
    }

    @Test
    void rankZeroReportsStepsOnlyWhenACallbackHandlesThem() {
        assertFalse(DriverCallbacks.wantsSteps(List.of(new CsvLogger(Path.of("unused.csv")),
                new EarlyStopping("loss", 2))));
        assertTrue(DriverCallbacks.wantsSteps(List.of(new TerminateOnNaN())));
        assertTrue(DriverCallbacks.wantsSteps(List.of(new LambdaCallback())));
    }

    @Test
    void backupAndRestoreIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SparkFit.create().callbacks(new BackupAndRestore(Path.of("backup"))));
        assertTrue(e.getMessage().contains("checkpoint"), e.getMessage());
    }

    @Test
    void aModelKerasCannotWriteIsRefusedNamingTheFactory() {
        // A learning-rate schedule of the user's own: a .keras file cannot record it.
        Model m = Sequential.of(Layers.input(4), Layers.dense(3, Activation.RELU));
        m.compile(Optimizers.sgd(step -> 0.1f / (1 + step), 0f, false), Losses.meanSquaredError());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KerasBytesFactory.write(m));
        assertTrue(e.getMessage().contains("ModelFactory"), e.getMessage());
    }
}

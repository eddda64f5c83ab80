package dev.brisk.callbacks;

import static dev.brisk.callbacks.StubTarget.logs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.Fit;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CsvLogger writes Keras' CSV: "epoch" then sorted keys, one row per epoch. */
class CsvLoggerTest {
    @TempDir
    Path dir;

    private static void run(CsvLogger cb, int firstEpoch, double... losses) {
        cb.setModel(new StubTarget());
        cb.onTrainBegin(logs());
        for (int i = 0; i < losses.length; i++) {
            cb.onEpochEnd(firstEpoch + i, logs("val_loss", losses[i] * 2, "loss", losses[i], "val_accuracy", 0.25,
                    "accuracy", 0.5));
        }
        cb.onTrainEnd(logs());
    }

    @Test
    void headerHasSortedKeysAndOneRowPerEpoch() throws IOException {
        Path f = dir.resolve("log.csv");
        run(new CsvLogger(f), 0, 1.25, 0.75);
        assertEquals(List.of("epoch,accuracy,loss,val_accuracy,val_loss",
                "0,0.5,1.25,0.25,2.5",
                "1,0.5,0.75,0.25,1.5"), Files.readAllLines(f));
    }

    @Test
    void appendModeDoesNotRepeatTheHeader() throws IOException {
        Path f = dir.resolve("log.csv");
        run(new CsvLogger(f, ",", true), 0, 1.0, 0.5);
        run(new CsvLogger(f, ",", true), 2, 0.25);
        assertEquals(List.of("epoch,accuracy,loss,val_accuracy,val_loss",
                "0,0.5,1.0,0.25,2.0",
                "1,0.5,0.5,0.25,1.0",
                "2,0.5,0.25,0.25,0.5"), Files.readAllLines(f));
    }

    @Test
    void overwriteModeStartsAfresh() throws IOException {
        Path f = dir.resolve("log.csv");
        run(new CsvLogger(f), 0, 1.0, 0.5);
        run(new CsvLogger(f), 0, 0.25);
        assertEquals(List.of("epoch,accuracy,loss,val_accuracy,val_loss", "0,0.5,0.25,0.25,0.5"),
                Files.readAllLines(f));
    }

    @Test
    void appendToAMissingFileWritesTheHeader() throws IOException {
        Path f = dir.resolve("nested/new.csv");
        run(new CsvLogger(f, ";", true), 0, 1.0);
        assertEquals(List.of("epoch;accuracy;loss;val_accuracy;val_loss", "0;0.5;1.0;0.25;2.0"),
                Files.readAllLines(f));
    }

    @Test
    void missingKeyIsWrittenAsNa() throws IOException {
        Path f = dir.resolve("log.csv");
        CsvLogger cb = new CsvLogger(f);
        cb.setModel(new StubTarget());
        cb.onTrainBegin(logs());
        cb.onEpochEnd(0, logs("loss", 1.0, "val_loss", 2.0));
        cb.onEpochEnd(1, logs("loss", 0.5));
        cb.onTrainEnd(logs());
        assertEquals(List.of("epoch,loss,val_loss", "0,1.0,2.0", "1,0.5,NA"), Files.readAllLines(f));
    }

    @Test
    void rowsAreFlushedEveryEpoch() throws IOException {
        Path f = dir.resolve("log.csv");
        CsvLogger cb = new CsvLogger(f);
        cb.setModel(new StubTarget());
        cb.onTrainBegin(logs());
        cb.onEpochEnd(0, logs("loss", 1.0));
        assertEquals(List.of("epoch,loss", "0,1.0"), Files.readAllLines(f), "readable while training");
        cb.onTrainEnd(logs());
    }

    @Test
    void unwritableFileIsNamed() throws IOException {
        Path blocker = dir.resolve("blocker");
        Files.writeString(blocker, "x");
        Path f = blocker.resolve("log.csv");
        CsvLogger cb = new CsvLogger(f);
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> cb.onTrainBegin(logs()));
        assertTrue(e.getMessage().contains(f.toString()), e.getMessage());
    }

    @Test
    void logsARealFit() throws IOException {
        RandomSeed.set(5);
        Sequential m = Sequential.of(Layers.input(2), Layers.dense(3));
        m.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        Tensor x = Tensor.of(new float[] {1, 0, 0, 1, 1, 1, 0, 0, 2, 1, 1, 2}, 6, 2);
        Tensor y = Tensor.of(new float[] {0, 1, 2, 0, 1, 2}, 6);
        Path f = dir.resolve("fit.csv");
        History h = m.fit(x, y, Fit.epochs(3).batchSize(4).validation(x, y).verbose(0).callbacks(new CsvLogger(f)));
        List<String> lines = Files.readAllLines(f);
        assertEquals(4, lines.size(), lines.toString());
        List<String> columns = List.of("accuracy", "cpu_util", "input_wait", "loss", "val_accuracy", "val_loss");
        assertEquals("epoch," + String.join(",", columns), lines.get(0));
        for (int e = 0; e < 3; e++) {
            String[] cells = lines.get(e + 1).split(",");
            assertEquals(Integer.toString(e), cells[0]);
            for (int c = 0; c < columns.size(); c++) {
                assertEquals(h.get(columns.get(c)).get(e), Double.parseDouble(cells[c + 1]), columns.get(c));
            }
        }
    }
}

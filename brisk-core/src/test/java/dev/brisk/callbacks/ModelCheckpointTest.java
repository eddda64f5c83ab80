package dev.brisk.callbacks;

import static dev.brisk.callbacks.StubTarget.logs;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.io.AtomicFiles;
import dev.brisk.io.WeightsFile;
import dev.brisk.losses.Losses;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Fit;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ModelCheckpoint's file naming and save-best rule, and the atomic writes under it. */
class ModelCheckpointTest {
    @TempDir
    Path dir;

    private List<String> names() throws IOException {
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static float savedW(Path file) throws IOException {
        return WeightsFile.load(file).get("w").get(0);
    }

    private void drive(ModelCheckpoint cb, StubTarget t, String metric, double... values) {
        cb.setModel(t);
        cb.onTrainBegin(logs());
        for (int epoch = 0; epoch < values.length; epoch++) {
            t.setW(epoch);
            cb.onEpochEnd(epoch, logs("loss", 1.0, metric, values[epoch]));
        }
        cb.onTrainEnd(logs());
    }

    @Test
    void saveBestOnlyWritesOnlyOnImprovementWithEpochInTheName() throws IOException {
        StubTarget t = new StubTarget();
        ModelCheckpoint cb = new ModelCheckpoint(dir.resolve("ckpt-{epoch:02d}.brisk").toString(), "val_loss",
                true, Monitor.AUTO);
        drive(cb, t, "val_loss", 1.0, 0.8, 0.9, 0.7, 0.75, 0.7);
        assertEquals(List.of("ckpt-01.brisk", "ckpt-02.brisk", "ckpt-04.brisk"), names(),
                "only improving epochs (1-based), no temporary files");
        assertEquals(0f, savedW(dir.resolve("ckpt-01.brisk")));
        assertEquals(1f, savedW(dir.resolve("ckpt-02.brisk")));
        assertEquals(3f, savedW(dir.resolve("ckpt-04.brisk")));
    }

    @Test
    void saveBestOnlyToOneFileKeepsTheBest() throws IOException {
        StubTarget t = new StubTarget();
        Path best = dir.resolve("best.brisk");
        ModelCheckpoint cb = new ModelCheckpoint(best.toString(), "val_accuracy", true, Monitor.AUTO);
        drive(cb, t, "val_accuracy", 0.5, 0.7, 0.6, 0.65);
        assertEquals(List.of("best.brisk"), names());
        assertEquals(1f, savedW(best), "epoch index 1 had the best accuracy (auto mode maximises accuracy)");
        assertEquals(2, t.saved.size());
    }

    @Test
    void everyEpochWithoutSaveBestOnly() throws IOException {
        StubTarget t = new StubTarget();
        ModelCheckpoint cb = new ModelCheckpoint(dir.resolve("e{epoch}-{epoch:03d}.brisk").toString());
        drive(cb, t, "val_loss", 1.0, 2.0, 3.0);
        assertEquals(List.of("e1-001.brisk", "e2-002.brisk", "e3-003.brisk"), names());
        assertEquals(2f, savedW(dir.resolve("e3-003.brisk")));
        assertEquals("x10y", new ModelCheckpoint("x{epoch:02d}y").fileFor(9, Map.of()));
        assertEquals("x100y", new ModelCheckpoint("x{epoch:02d}y").fileFor(99, Map.of()));
        assertEquals("plain", new ModelCheckpoint("plain").fileFor(3, Map.of()));
        assertEquals("w-04-0.35.brisk", new ModelCheckpoint("w-{epoch:02d}-{val_loss:.2f}.brisk")
                .fileFor(3, Map.of("val_loss", 0.3456)));
    }

    @Test
    void missingMonitorWithSaveBestOnlySavesNothing() throws IOException {
        StubTarget t = new StubTarget();
        ModelCheckpoint cb = new ModelCheckpoint(dir.resolve("c.brisk").toString(), "val_loss", true,
                Monitor.AUTO);
        cb.setModel(t);
        cb.onEpochEnd(0, logs("loss", 0.5));
        assertEquals(List.of(), names());
    }

    @Test
    void writeFailureNamesTheFileAndEpoch() throws IOException {
        StubTarget t = new StubTarget();
        Path blocker = dir.resolve("blocker");
        Files.writeString(blocker, "a file where a directory should be");
        Path target = blocker.resolve("c.brisk");
        ModelCheckpoint cb = new ModelCheckpoint(target.toString());
        cb.setModel(t);
        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> cb.onEpochEnd(4, logs("val_loss", 1.0)));
        assertTrue(e.getMessage().contains(target.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("epoch 5"), e.getMessage());
    }

    @Test
    void checkpointsOfARealFitReloadToTheSamePredictions() throws IOException {
        RandomSeed.set(8);
        Sequential m = Sequential.of(Layers.input(3), Layers.dense(4, Activation.TANH), Layers.dense(1));
        m.compile(Optimizers.adam(1e-2f), Losses.meanSquaredError());
        Tensor x = Tensor.of(new float[] {1, 2, 3, 0, 1, 0, -1, 2, 1, 3, 3, 3, 0, 0, 1, 2, 2, 0}, 6, 3);
        Tensor y = Tensor.of(new float[] {1, 0, -1, 2, 0.5f, 1}, 6, 1);
        ModelCheckpoint cb = new ModelCheckpoint(dir.resolve("m-{epoch:02d}.brisk").toString());
        m.fit(x, y, Fit.epochs(3).batchSize(3).validation(x, y).verbose(0).callbacks(cb));
        assertEquals(List.of("m-01.brisk", "m-02.brisk", "m-03.brisk"), names());
        Tensor expected = m.predict(x).copy();
        m.loadWeights(dir.resolve("m-01.brisk"));
        Tensor first = m.predict(x).copy();
        assertTrue(Math.abs(first.get(0) - expected.get(0)) > 1e-6, "epoch 1 differs from epoch 3");
        m.loadWeights(dir.resolve("m-03.brisk"));
        assertArrayEquals(expected.toArray(), m.predict(x).toArray());
    }

    // ---- AtomicFiles ----

    @Test
    void atomicWriteReplacesTheFile() throws IOException {
        Path f = dir.resolve("sub/dir/file.bin");
        AtomicFiles.write(f, out -> out.write("first".getBytes(StandardCharsets.UTF_8)));
        assertEquals("first", Files.readString(f));
        AtomicFiles.write(f, out -> out.write("second!".getBytes(StandardCharsets.UTF_8)));
        assertEquals("second!", Files.readString(f));
        try (var s = Files.list(f.getParent())) {
            assertEquals(List.of("file.bin"), s.map(p -> p.getFileName().toString()).toList());
        }
    }

    @Test
    void writerThatThrowsMidwayLeavesTheOldFileIntactAndNoTempFile() throws IOException {
        Path f = dir.resolve("good.brisk");
        byte[] good = "the last good checkpoint".getBytes(StandardCharsets.UTF_8);
        Files.write(f, good);
        IOException boom = new IOException("disk full");
        IOException thrown = assertThrows(IOException.class, () -> AtomicFiles.write(f, out -> {
            out.write(new byte[100_000]);
            out.flush();
            throw boom;
        }));
        assertSame(boom, thrown);
        assertArrayEquals(good, Files.readAllBytes(f));
        assertEquals(List.of("good.brisk"), names(), "no temporary file left");

        IllegalStateException bug = new IllegalStateException("bug in the writer");
        assertSame(bug, assertThrows(IllegalStateException.class, () -> AtomicFiles.write(f, out -> {
            out.write(new byte[10]);
            throw bug;
        })));
        assertArrayEquals(good, Files.readAllBytes(f));
        assertEquals(List.of("good.brisk"), names());

        // a new file that fails is never created
        Path fresh = dir.resolve("fresh.brisk");
        assertThrows(IOException.class, () -> AtomicFiles.write(fresh, out -> {
            out.write(1);
            throw new IOException("no");
        }));
        assertEquals(List.of("good.brisk"), names());
    }

    @Test
    void weightsFileSaveIsAtomicToo() throws IOException {
        Path f = dir.resolve("w.brisk");
        WeightsFile.save(f, java.util.Map.of("a", Tensor.of(new float[] {1, 2}, 2)));
        byte[] before = Files.readAllBytes(f);
        // the second name is too long for the format: the save fails after the first tensor was written
        java.util.Map<String, Tensor> bad = new java.util.LinkedHashMap<>();
        bad.put("big", Tensor.zeros(50_000));
        bad.put("x".repeat(70_000), Tensor.zeros(1));
        assertThrows(IOException.class, () -> WeightsFile.save(f, bad));
        assertArrayEquals(before, Files.readAllBytes(f));
        assertEquals(List.of("w.brisk"), names());
        assertEquals(2f, WeightsFile.load(f).get("a").get(1));
    }
}

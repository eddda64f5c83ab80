package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.BackupAndRestore;
import dev.brisk.callbacks.Callback;
import dev.brisk.io.WeightsFile;
import dev.brisk.losses.Losses;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run killed at any point and started again ends with the weights of an uninterrupted run. */
class BackupAndRestoreTest {
    @TempDir
    Path dir;

    /** Batch norm (moving statistics), dropout (the random stream) and Adam (moments, step count). */
    static Model model() {
        RandomSeed.set(5);
        Model m = Sequential.of(Layers.input(12), Layers.dense(16, Activation.RELU), Layers.batchNormalization(),
                Layers.dropout(0.3f), Layers.dense(3));
        m.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true));
        return m;
    }

    /** 3 epochs of 6 steps (60 samples in batches of 10), shuffled with a fixed seed. */
    static Fit fit() {
        return Fit.epochs(3).batchSize(10).seed(8).verbose(0);
    }

    private static void assertSame(List<Tensor> a, List<Tensor> b) {
        assertEquals(a.size(), b.size());
        for (int i = 0; i < a.size(); i++) {
            assertArrayEquals(a.get(i).toArray(), b.get(i).toArray(), "weight " + i);
        }
    }

    /** Fails the step after {@code step}, as a crash would (the backup before it survives). */
    private static final class Crash extends Callback {
        private final int step;
        private int steps;

        Crash(int step) {
            this.step = step;
        }

        @Override
        public void onTrainBatchEnd(int batch, Map<String, Double> logs) {
            if (++steps == step) {
                throw new IllegalStateException("crash at step " + step);
            }
        }
    }

    @Test
    void aRunCrashedMidEpochResumesFromItsBackupToTheSameWeights() {
        Tensor[] xy = EagerVsCompiledTest.data(60, 12);
        Model reference = model();
        reference.fit(xy[0], xy[1], fit());
        List<Tensor> expected = reference.getWeights();

        for (int crashAt : new int[] {3, 9, 13, 18}) {
            Path backups = dir.resolve("run" + crashAt);
            Model crashed = model();
            assertThrows(IllegalStateException.class, () -> crashed.fit(xy[0], xy[1],
                    fit().callbacks(new BackupAndRestore(backups).everySteps(4), new Crash(crashAt))));
            assertEquals(crashAt >= 4, Files.exists(backups.resolve(BackupAndRestore.FILE)), "step " + crashAt);
            Model restarted = model(); // the same command again, in a fresh model
            restarted.fit(xy[0], xy[1], fit().callbacks(new BackupAndRestore(backups).everySteps(4)));
            assertSame(expected, restarted.getWeights());
            assertFalse(Files.exists(backups), "deleted after a successful run");
        }
    }

    @Test
    void epochBackupsAndInitialEpoch() {
        Tensor[] xy = EagerVsCompiledTest.data(60, 12);
        Model reference = model();
        reference.fit(xy[0], xy[1], fit());
        Path backups = dir.resolve("epochs");
        Model crashed = model();
        assertThrows(IllegalStateException.class, () -> crashed.fit(xy[0], xy[1],
                fit().callbacks(new BackupAndRestore(backups), new Crash(14))));
        Model restarted = model();
        restarted.fit(xy[0], xy[1], fit().callbacks(new BackupAndRestore(backups)));
        assertSame(reference.getWeights(), restarted.getWeights());

        // Fit.initialEpoch on the same model: one epoch, then epochs 1 and 2, is the three-epoch run.
        Model split = model();
        split.fit(xy[0], xy[1], Fit.epochs(1).batchSize(10).seed(8).verbose(0));
        split.fit(xy[0], xy[1], fit().initialEpoch(1));
        assertSame(reference.getWeights(), split.getWeights());
        assertThrows(IllegalArgumentException.class, () -> Fit.epochs(2).initialEpoch(2));
    }

    @Test
    void aDamagedBackupIsRefusedWithWhatWasFound() throws IOException {
        Tensor[] xy = EagerVsCompiledTest.data(60, 12);
        Path backups = dir.resolve("damaged");
        Model crashed = model();
        assertThrows(IllegalStateException.class, () -> crashed.fit(xy[0], xy[1],
                fit().callbacks(new BackupAndRestore(backups).everySteps(4), new Crash(9))));
        Path file = backups.resolve(BackupAndRestore.FILE);
        byte[] b = Files.readAllBytes(file);
        b[b.length / 2] ^= 0x10;
        Files.write(file, b);
        Model restarted = model();
        List<Tensor> before = restarted.getWeights();
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> restarted.fit(xy[0], xy[1],
                fit().callbacks(new BackupAndRestore(backups))));
        assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("cannot be restored"),
                e.getMessage());
        assertSame(before, restarted.getWeights());
        Files.write(file, java.util.Arrays.copyOf(b, b.length / 3));
        e = assertThrows(UncheckedIOException.class, () -> model().fit(xy[0], xy[1],
                fit().callbacks(new BackupAndRestore(backups))));
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }

    /** Kills a real training JVM with SIGKILL in the middle of an epoch, starts it again, and compares. */
    @Test
    void aTrainingProcessKilledWithSigkillResumesToTheSameWeights() throws Exception {
        Path reference = dir.resolve("reference.weights");
        run(dir.resolve("ref-backup"), reference, -1, true);
        Path backups = dir.resolve("backup");
        Path out = dir.resolve("resumed.weights");
        Process p = start(backups, out, 10);
        Path ready = out.resolveSibling(out.getFileName() + ".ready");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!Files.exists(ready) && p.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertTrue(Files.exists(ready), "the child did not reach step 10: " + output(p));
        p.destroyForcibly(); // SIGKILL: no shutdown hook, no finally block runs
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(137, p.exitValue(), "killed by SIGKILL");
        assertTrue(Files.exists(backups.resolve(BackupAndRestore.FILE)), "the backup of step 8 is there");
        assertFalse(Files.exists(out));
        run(backups, out, -1, true);
        Map<String, Tensor> a = WeightsFile.load(reference);
        Map<String, Tensor> b = WeightsFile.load(out);
        assertEquals(a.keySet(), b.keySet());
        for (String k : a.keySet()) {
            assertArrayEquals(a.get(k).toArray(), b.get(k).toArray(), k);
        }
        assertFalse(Files.exists(backups), "the backup is deleted after the run completes");
    }

    private static Process start(Path backups, Path out, int hangAt) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(java, "--add-modules", "jdk.incubator.vector",
                "-Dbrisk.threads=1", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                BackupChild.class.getName(), backups.toString(), out.toString(), Integer.toString(hangAt)));
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    private static void run(Path backups, Path out, int hangAt, boolean mustSucceed) throws Exception {
        Process p = start(backups, out, hangAt);
        String text = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), text);
        if (mustSucceed) {
            assertEquals(0, p.exitValue(), text);
        }
    }

    private static String output(Process p) throws IOException {
        if (p.isAlive()) {
            return "(still running)";
        }
        return new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
}

package dev.brisk.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.data.FashionMnist;
import dev.brisk.data.NpyReader;
import dev.brisk.data.TrainTestSplit;
import dev.brisk.data.UnpackedCache;
import dev.brisk.keras.KerasModels;
import dev.brisk.nn.Input;
import dev.brisk.nn.Model;
import dev.brisk.nn.SymbolicTensor;
import dev.brisk.nn.layers.Layers;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code train --save}, then {@code evaluate}, {@code predict} and {@code summary} on the saved file. */
class ModelFileCommandsTest {
    private static final Path FIXTURE = Path.of("../brisk-core/src/test/resources/fashion-mnist-mini");

    private static String line(CliRun r, String prefix) {
        return r.out().lines().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow(() ->
                new AssertionError("no '" + prefix + "' line in:\n" + r.out() + r.err()));
    }

    @Test
    void evaluateOfASavedModelPrintsTheTrainingRunsTestFigures(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("m.keras");
        CliRun train = CliRun.run("train", "--workload", "w2", "--epochs", "1", "--limit", "256", "--seed", "3",
                "--verbose", "0", "--data", FIXTURE.toString(), "--save", file.toString());
        assertEquals(0, train.code(), train.err());
        assertTrue(Files.exists(file));
        CliRun eval = CliRun.run("evaluate", "--model", file.toString(), "--data", FIXTURE.toString());
        assertEquals(0, eval.code(), eval.err());
        assertEquals(line(train, "test: "), line(eval, "test: "));
        String result = line(eval, "RESULT");
        assertTrue(result.matches(EvaluateCommand.RESULT_REGEX), result);
        assertTrue(result.contains(" model=m.keras ") && result.matches(".* optimizer_steps=[1-9]\\d* .*"), result);
        assertEquals(line(train, "RESULT").replaceAll(".* test_acc=(\\S+) .*", "$1"),
                result.replaceAll(".* test_acc=(\\S+) .*", "$1"));

        CliRun summary = CliRun.run("summary", "--model", file.toString());
        assertEquals(0, summary.code(), summary.err());
        assertTrue(summary.out().contains("Conv2D") && summary.out().contains("Optimizer: adam"), summary.out());

        // predict writes what the model computes for the test images (given flat: reshaped to the model's input).
        TrainTestSplit split = FashionMnist.load(FIXTURE, 255f, UnpackedCache.fromEnvironment());
        Tensor images = split.test().flatten().features();
        Path x = dir.resolve("x.npy");
        NpyFiles.write(x, images);
        Path y = dir.resolve("y.npy");
        CliRun predict = CliRun.run("predict", "--model", file.toString(), "--input", x.toString(), "--output",
                y.toString());
        assertEquals(0, predict.code(), predict.err());
        Model m = KerasModels.load(file);
        Tensor expected = m.predict(split.test().features(), 128);
        Tensor got = NpyReader.read(y);
        assertArrayEquals(expected.shape().dims(), got.shape().dims());
        assertArrayEquals(expected.toArray(), got.toArray());
    }

    /**
     * A model with an open sequence length ({@code Input(shape=(None, 28))}): {@code summary} shows the open axis as
     * None, and {@code predict} takes an array of any length, writing what the model computes for it.
     */
    @Test
    void predictAndSummaryOfAModelWithAnOpenLength(@TempDir Path dir) throws Exception {
        SymbolicTensor in = Input.of(Shape.OPEN, 28);
        Model open = Model.of(List.of(in), List.of(Layers.dense(3).apply(Layers.gru(4).apply(in))));
        Path file = dir.resolve("open.keras");
        KerasModels.save(open, file);
        CliRun summary = CliRun.run("summary", "--model", file.toString());
        assertEquals(0, summary.code(), summary.err());
        assertTrue(summary.out().contains("(None, None, 28)"), summary.out());
        for (int length : new int[] {5, 9}) {
            float[] v = new float[2 * length * 28];
            for (int i = 0; i < v.length; i++) {
                v[i] = (i % 13) / 13f;
            }
            Tensor x = Tensor.of(v, 2, length, 28);
            Path xs = dir.resolve("x" + length + ".npy");
            NpyFiles.write(xs, x);
            Path ys = dir.resolve("y" + length + ".npy");
            CliRun predict = CliRun.run("predict", "--model", file.toString(), "--input", xs.toString(), "--output",
                    ys.toString());
            assertEquals(0, predict.code(), predict.err());
            assertArrayEquals(open.predict(x).toArray(), NpyReader.read(ys).toArray(), "length " + length);
        }
    }

    @Test
    void aDamagedModelFileIsOneLineNamingIt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.keras");
        Files.writeString(file, "not a zip");
        CliRun r = CliRun.run("evaluate", "--model", file.toString(), "--data", FIXTURE.toString());
        assertEquals(1, r.code());
        assertTrue(r.err().startsWith("brisk evaluate: " + file), r.err());
    }
}

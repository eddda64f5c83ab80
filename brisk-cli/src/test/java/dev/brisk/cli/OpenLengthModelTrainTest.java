package dev.brisk.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.parallel.ThreadBudget;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code brisk train --model MODEL.json} with a text model that leaves its length open ({@code batch_shape [null,
 * null]}, int32 ids, Embedding with {@code mask_zero}, LSTM): the ids come from a CSV's columns or an NPY array, as
 * numbers, and reach the model as int32 at the file's length, the zeros at the end of each row being padding. The
 * trained model is saved and exported to ONNX with its length dynamic.
 */
class OpenLengthModelTrainTest {
    private static final int ROWS = 240;
    private static final int STEPS = 12;
    private static final String MODEL = """
            {"module": "keras", "class_name": "Sequential", "config": {"name": "text", "layers": [
              {"class_name": "InputLayer", "config": {"batch_shape": [null, null], "dtype": "int32", "name": "ids"}},
              {"class_name": "Embedding", "config": {"name": "emb", "input_dim": 20, "output_dim": 8,
                "mask_zero": true}},
              {"class_name": "LSTM", "config": {"name": "lstm", "units": 8}},
              {"class_name": "Dense", "config": {"name": "out", "units": 2, "activation": "softmax"}}]},
             "compile_config": {"optimizer": {"class_name": "Adam", "config": {"learning_rate": 0.01}},
               "loss": "sparse_categorical_crossentropy", "metrics": ["accuracy"]}}
            """;

    @AfterEach
    void resetBudget() {
        ThreadBudget.reset();
    }

    /** Rows of 4 to 12 ids in 2..19, zeros after; class 1 when the row holds the id 1 somewhere. */
    private static float[][] rows() {
        SplittableRandom r = new SplittableRandom(12);
        float[][] rows = new float[ROWS][STEPS + 1];
        for (int i = 0; i < ROWS; i++) {
            int length = 4 + r.nextInt(STEPS - 3);
            for (int s = 0; s < length; s++) {
                rows[i][s] = 2 + r.nextInt(18);
            }
            int cls = r.nextInt(2);
            if (cls == 1) {
                rows[i][r.nextInt(length)] = 1;
            }
            rows[i][STEPS] = cls;
        }
        return rows;
    }

    private static Path csv(Path dir, String badCell) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int s = 0; s < STEPS; s++) {
            sb.append('t').append(s).append(',');
        }
        sb.append("label\n");
        float[][] rows = rows();
        for (int i = 0; i < ROWS; i++) {
            for (int s = 0; s <= STEPS; s++) {
                String cell = i == 7 && s == 3 && badCell != null ? badCell : String.valueOf((int) rows[i][s]);
                sb.append(cell).append(s < STEPS ? "," : "\n");
            }
        }
        Path file = dir.resolve("ids.csv");
        Files.writeString(file, sb);
        return file;
    }

    private static double testValue(CliRun r) {
        String line = r.out().lines().filter(l -> l.startsWith("RESULT ")).reduce((a, b) -> b).orElseThrow();
        return ResultLine.parse(line).testValue();
    }

    @Test
    void csvColumnsOfIdsTrainAnOpenLengthModelThatExportsWithADynamicLength(@TempDir Path dir) throws IOException {
        Path model = dir.resolve("text.json");
        Files.writeString(model, MODEL);
        Path saved = dir.resolve("text.keras");
        CliRun r = CliRun.run("train", "--model", model.toString(), "--data", csv(dir, null).toString(), "--label",
                "label", "--epochs", "8", "--seed", "3", "--verbose", "0", "--threads", "1", "--save",
                saved.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(testValue(r) > 0.8, r.out());
        Path onnx = dir.resolve("text.onnx");
        CliRun export = CliRun.run("export", "--model", saved.toString(), "--onnx", onnx.toString());
        assertEquals(0, export.code(), export.err());
        assertTrue(Files.size(onnx) > 0);
    }

    @Test
    void npyIdsTrainAnOpenLengthModel(@TempDir Path dir) throws IOException {
        float[][] rows = rows();
        float[] x = new float[ROWS * STEPS];
        float[] y = new float[ROWS];
        for (int i = 0; i < ROWS; i++) {
            System.arraycopy(rows[i], 0, x, i * STEPS, STEPS);
            y[i] = rows[i][STEPS];
        }
        NpyFiles.write(dir.resolve("x.npy"), Tensor.of(x, ROWS, STEPS));
        NpyFiles.write(dir.resolve("y.npy"), Tensor.of(y, ROWS));
        Path model = dir.resolve("text.json");
        Files.writeString(model, MODEL);
        CliRun r = CliRun.run("train", "--model", model.toString(), "--data", dir.resolve("x.npy").toString(),
                "--label", dir.resolve("y.npy").toString(), "--epochs", "8", "--seed", "3", "--verbose", "0",
                "--threads", "1");
        assertEquals(0, r.code(), r.err());
        assertTrue(testValue(r) > 0.8, r.out());
    }

    @Test
    void aValueThatIsNoIdIsRefusedNamingItsRowAndColumn(@TempDir Path dir) throws IOException {
        Path model = dir.resolve("text.json");
        Files.writeString(model, MODEL);
        CliRun r = CliRun.run("train", "--model", model.toString(), "--data", csv(dir, "2.5").toString(), "--label",
                "label", "--epochs", "1", "--verbose", "0", "--threads", "1");
        assertNotEquals(0, r.code());
        assertTrue(r.err().contains("--data row 8, feature 't3': 2.5 is not a token id; the model's input 'ids' is"
                + " int32"), r.err());
        CliRun normalized = CliRun.run("train", "--model", model.toString(), "--data", csv(dir, null).toString(),
                "--label", "label", "--normalize", "--epochs", "1", "--verbose", "0", "--threads", "1");
        assertNotEquals(0, normalized.code());
        assertTrue(normalized.err().contains("--normalize standardizes features, but the model's input 'ids' takes"
                + " int32 token ids"), normalized.err());
    }
}

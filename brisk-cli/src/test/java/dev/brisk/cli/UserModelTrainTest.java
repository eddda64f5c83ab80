package dev.brisk.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.parallel.ThreadBudget;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code brisk train --model MODEL.json --data DATA --label ...} end to end: a Keras 3 model description trained
 * on a CSV regression with missing cells (tools/fixtures/make_user_data.py; no tabular data set ships in an
 * installed Debian package, so it is generated) and on an NPY classification, each ending with a RESULT line
 * whose figure is checked against what the data allows.
 */
class UserModelTrainTest {
    private static final Path DATA = Path.of("src/test/resources/user-data");

    @AfterEach
    void resetBudget() {
        ThreadBudget.reset();
    }

    /** The test figure of the run's RESULT line, which must match the documented pattern. */
    private static double testValue(String out) {
        String line = out.lines().filter(l -> l.startsWith("RESULT ")).reduce((a, b) -> b).orElseThrow();
        assertTrue(line.matches(ResultLine.REGEX), line);
        return ResultLine.parse(line).testValue();
    }

    /** The variance of the last 20% of the CSV's prices: the loss of always predicting their mean. */
    private static double validationVariance() throws IOException {
        List<String> rows = Files.readAllLines(DATA.resolve("houses.csv")).subList(1, 241);
        List<Double> prices = rows.subList(192, 240).stream()
                .map(r -> Double.parseDouble(r.substring(r.lastIndexOf(',') + 1))).toList();
        double mean = prices.stream().mapToDouble(d -> d).average().orElseThrow();
        return prices.stream().mapToDouble(d -> (d - mean) * (d - mean)).average().orElseThrow();
    }

    @Test
    void csvRegressionWithMissingValuesNormalizationAndEarlyStopping() throws IOException {
        CliRun r = CliRun.run("train", "--model", DATA.resolve("model-regression.json").toString(),
                "--data", DATA.resolve("houses.csv").toString(), "--label", "price", "--fill-value", "0",
                "--missing", "NA", "--normalize", "--loss", "mean_squared_error", "--learning-rate", "0.01",
                "--epochs", "60", "--patience", "5", "--batch-size", "16", "--seed", "3", "--verbose", "0",
                "--threads", "1");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("features [rooms, age, area]"), r.out());
        double loss = testValue(r.out());
        double variance = validationVariance();
        assertTrue(r.out().contains("test_loss="), r.out());
        // A model that learned the (nearly linear) price explains most of its variance.
        assertTrue(loss < 0.25 * variance, "validation MSE " + loss + " against a variance of " + variance);
    }

    @Test
    void indicatorColumnsMarkTheFilledCells(@TempDir Path dir) throws IOException {
        // The same model with two more inputs: age_missing and area_missing.
        String description = Files.readString(DATA.resolve("model-regression.json"));
        String wider = description.replaceFirst("(\"batch_shape\": \\[\\s*null,\\s*)3", "$15");
        assertNotEquals(description, wider);
        Path model = dir.resolve("model-indicators.json");
        Files.writeString(model, wider);
        CliRun r = CliRun.run("train", "--model", model.toString(), "--data", DATA.resolve("houses.csv").toString(),
                "--label", "price", "--fill-value", "0", "--missing", "NA", "--indicate-missing", "age,area",
                "--normalize", "--loss", "mean_squared_error", "--learning-rate", "0.01", "--epochs", "60",
                "--patience", "5", "--batch-size", "16", "--seed", "3", "--verbose", "0", "--threads", "1");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("features [rooms, age, area, age_missing, area_missing]"), r.out());
        double loss = testValue(r.out());
        double variance = validationVariance();
        assertTrue(loss < 0.25 * variance, "validation MSE " + loss + " against a variance of " + variance);

        CliRun noFill = CliRun.run("train", "--model", model.toString(), "--data",
                DATA.resolve("houses.csv").toString(), "--label", "price", "--indicate-missing", "age", "--loss",
                "mse");
        assertEquals(2, noFill.code());
        assertTrue(noFill.err().contains("--indicate-missing") && noFill.err().contains("--fill-value"),
                noFill.err());
        CliRun unknown = CliRun.run("train", "--model", model.toString(), "--data",
                DATA.resolve("houses.csv").toString(), "--label", "price", "--fill-value", "0", "--missing", "NA",
                "--indicate-missing", "rooms,height", "--loss", "mse", "--epochs", "1", "--verbose", "0");
        assertNotEquals(0, unknown.code());
        assertTrue(unknown.err().contains("'height'"), unknown.err());
        CliRun workload = CliRun.run("train", "--workload", "w1", "--indicate-missing", "age");
        assertEquals(2, workload.code());
        assertTrue(workload.err().contains("--indicate-missing"), workload.err());
    }

    @Test
    void missingCellsWithoutAFillValueAreRefusedNamingTheLine() {
        CliRun r = CliRun.run("train", "--model", DATA.resolve("model-regression.json").toString(),
                "--data", DATA.resolve("houses.csv").toString(), "--label", "price", "--loss", "mse",
                "--epochs", "1", "--verbose", "0", "--threads", "1");
        assertNotEquals(0, r.code());
        assertTrue(r.err().contains("houses.csv line"), r.err());
        assertFalse(r.err().contains("\tat "), "the message alone, not a stack trace: " + r.err());
    }

    @Test
    void npyClassificationWithACompiledDescription(@TempDir Path dir) throws IOException {
        int n = 300;
        SplittableRandom random = new SplittableRandom(5);
        float[] x = new float[n * 4];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            y[i] = random.nextInt(3);
            for (int j = 0; j < 4; j++) {
                x[i * 4 + j] = (float) random.nextGaussian() * 0.5f + (j == y[i] ? 2f : 0f);
            }
        }
        NpyFiles.write(dir.resolve("x.npy"), Tensor.of(x, n, 4));
        NpyFiles.write(dir.resolve("y.npy"), Tensor.of(y, n));
        Path model = dir.resolve("model.json");
        Files.writeString(model, """
                {"module": "keras", "class_name": "Sequential", "config": {"name": "clf", "layers": [
                  {"class_name": "InputLayer", "config": {"batch_shape": [null, 4], "name": "in"}},
                  {"class_name": "Dense", "config": {"name": "hidden", "units": 8, "activation": "relu"}},
                  {"class_name": "Dense", "config": {"name": "out", "units": 3, "activation": "softmax"}}]},
                 "compile_config": {"optimizer": {"class_name": "Adam", "config": {"learning_rate": 0.01}},
                   "loss": "sparse_categorical_crossentropy", "metrics": ["accuracy"]}}
                """);
        CliRun r = CliRun.run("train", "--model", model.toString(), "--data", dir.resolve("x.npy").toString(),
                "--label", dir.resolve("y.npy").toString(), "--epochs", "15", "--seed", "2", "--verbose", "0",
                "--threads", "1");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("test_acc="), r.out());
        assertTrue(testValue(r.out()) > 0.85, r.out());
    }

    @Test
    void imageDirectoryClassification(@TempDir Path dir) throws IOException {
        // Two classes of 8x8 grey images: bright upper halves and bright lower halves, with noise.
        SplittableRandom random = new SplittableRandom(9);
        for (String cls : List.of("lower", "upper")) {
            Files.createDirectories(dir.resolve(cls));
            for (int k = 0; k < 30; k++) {
                java.awt.image.BufferedImage img = new java.awt.image.BufferedImage(8, 8,
                        java.awt.image.BufferedImage.TYPE_BYTE_GRAY);
                for (int yy = 0; yy < 8; yy++) {
                    for (int xx = 0; xx < 8; xx++) {
                        boolean bright = cls.equals("upper") == (yy < 4);
                        int v = (bright ? 180 : 40) + random.nextInt(60);
                        img.getRaster().setSample(xx, yy, 0, v);
                    }
                }
                javax.imageio.ImageIO.write(img, "png", dir.resolve(cls).resolve(k + ".png").toFile());
            }
        }
        Path model = dir.resolve("model.json");
        Files.writeString(model, """
                {"module": "keras", "class_name": "Sequential", "config": {"name": "images", "layers": [
                  {"class_name": "InputLayer", "config": {"batch_shape": [null, 8, 8, 1], "name": "in"}},
                  {"class_name": "Flatten", "config": {"name": "flat"}},
                  {"class_name": "Dense", "config": {"name": "out", "units": 2, "activation": "softmax"}}]}}
                """);
        CliRun r = CliRun.run("train", "--model", model.toString(), "--data", dir.toString(), "--normalize",
                "--loss", "sparse_categorical_crossentropy", "--metrics", "accuracy", "--learning-rate", "0.01",
                "--epochs", "10", "--batch-size", "8", "--seed", "4", "--verbose", "0", "--threads", "1");
        assertEquals(0, r.code(), r.err());
        // 60 images shuffled by the seed, the last 12 held out: nearly all are told apart.
        assertTrue(r.out().contains("48 training and 12 validation rows"), r.out());
        assertTrue(testValue(r.out()) > 0.9, r.out());
    }

    @Test
    void csvWithATextFeatureAndTextLabelsIsSeededAndReproducible(@TempDir Path dir) throws IOException {
        // The colour follows the city (paris and lille red, lyon blue, nice and bordeaux green); the zip is noise.
        String[] cities = {"paris", "lyon", "nice", "bordeaux", "lille"};
        String[] colours = {"red", "blue", "green", "green", "red"};
        SplittableRandom random = new SplittableRandom(11);
        StringBuilder csv = new StringBuilder("size,city,zip,colour\n");
        for (int i = 0; i < 200; i++) {
            int c = random.nextInt(cities.length);
            String zip = i % 50 == 7 ? "" : String.format("%05d", random.nextInt(100_000));
            csv.append(String.format(java.util.Locale.ROOT, "%.2f,%s,%s,%s%n", random.nextDouble(),
                    i % 40 == 3 ? "NA" : cities[c], zip, colours[c]));
        }
        Path data = dir.resolve("cities.csv");
        Files.writeString(data, csv);
        // size, city one-hot over 7 ids (padding, [UNK] and the 5 cities), zip's bin: 9 features.
        Path model = dir.resolve("model.json");
        Files.writeString(model, """
                {"module": "keras", "class_name": "Sequential", "config": {"name": "cities", "layers": [
                  {"class_name": "InputLayer", "config": {"batch_shape": [null, 9], "name": "in"}},
                  {"class_name": "Dense", "config": {"name": "hidden", "units": 16, "activation": "relu"}},
                  {"class_name": "Dense", "config": {"name": "out", "units": 3, "activation": "softmax"}}]}}
                """);
        String[] args = {"train", "--model", model.toString(), "--data", data.toString(), "--label", "colour",
                "--lookup-column", "city:one_hot", "--hash-column", "zip:16", "--fill-value", "0", "--missing", "NA",
                "--loss", "sparse_categorical_crossentropy", "--metrics", "accuracy", "--learning-rate", "0.02",
                "--epochs", "20", "--batch-size", "16", "--seed", "7", "--verbose", "0", "--threads", "1"};
        CliRun r = CliRun.run(args);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("label 'colour': 3 text classes, in sorted order: 0=blue, 1=green, 2=red"),
                r.out());
        assertTrue(r.out().contains("column 'city': vocabulary of 7 ids"), r.out());
        assertTrue(r.out().contains("features [size, city[0], city[1], city[2], city[3], city[4], city[5], city[6],"
                + " zip]"), r.out());
        // The city decides the colour: the held-out rows are nearly all right.
        assertTrue(testValue(r.out()) > 0.9, r.out());
        // The same seed gives the same run.
        CliRun again = CliRun.run(args);
        assertEquals(0, again.code(), again.err());
        assertEquals(validationLine(r.out()), validationLine(again.out()));
        assertEquals(testValue(r.out()), testValue(again.out()));
    }

    @Test
    void textColumnOptionsAreCheckedBeforeAnyWork() {
        CliRun badBins = CliRun.run("train", "--model", DATA.resolve("model-regression.json").toString(),
                "--data", DATA.resolve("houses.csv").toString(), "--label", "price", "--hash-column", "rooms:x",
                "--loss", "mse");
        assertEquals(2, badBins.code());
        assertTrue(badBins.err().contains("--hash-column") && badBins.err().contains("COLUMN:BINS"), badBins.err());
        CliRun workload = CliRun.run("train", "--workload", "w1", "--lookup-column", "city");
        assertEquals(2, workload.code());
        assertTrue(workload.err().contains("--lookup-column"), workload.err());
    }

    private static String validationLine(String out) {
        return out.lines().filter(l -> l.startsWith("validation: ")).findFirst().orElseThrow();
    }

    @Test
    void usageErrorsComeBeforeAnyWork() {
        CliRun noData = CliRun.run("train", "--model", DATA.resolve("model-regression.json").toString(),
                "--label", "price");
        assertEquals(2, noData.code());
        assertTrue(noData.err().contains("--data"), noData.err());
        CliRun noLoss = CliRun.run("train", "--model", DATA.resolve("model-regression.json").toString(),
                "--data", DATA.resolve("houses.csv").toString(), "--label", "price", "--fill-value", "0",
                "--missing", "NA");
        assertEquals(2, noLoss.code());
        assertTrue(noLoss.err().contains("--loss"), noLoss.err());
        CliRun both = CliRun.run("train", "--model", "m.json", "--workload", "w1");
        assertEquals(2, both.code());
        CliRun help = CliRun.run("train", "--help");
        assertEquals(0, help.code());
        assertTrue(help.out().contains("--model") && help.out().contains("--fill-value")
                && help.out().contains("--indicate-missing"), help.out());
        assertTrue(help.out().contains("--lookup-column") && help.out().contains("--hash-column"), help.out());
    }
}

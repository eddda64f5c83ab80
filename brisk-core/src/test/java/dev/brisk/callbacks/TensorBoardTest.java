package dev.brisk.callbacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.io.tensorboard.EventFileReader;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tbproto.Event;
import dev.brisk.tbproto.HistogramProto;
import dev.brisk.tbproto.Summary;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code fit} with the TensorBoard callback, its event files read back by the independent reader (own CRC32C,
 * protobuf-java classes generated from TensorBoard's .proto files), and tags, steps and values compared with the
 * History and the model.
 */
class TensorBoardTest {
    private static final int SAMPLES = 64;
    private static final int BATCH = 16;
    private static final int STEPS = SAMPLES / BATCH;

    @TempDir
    Path dir;

    /** A scalar or histogram read back: tag, step and value. */
    private record Point(long step, Summary.Value value) {
    }

    private static Tensor[] data(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] x = new float[n * 6];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            int best = 0;
            for (int j = 0; j < 6; j++) {
                x[i * 6 + j] = (float) r.nextGaussian();
                if (j < 3 && x[i * 6 + j] > x[i * 6 + best]) {
                    best = j;
                }
            }
            y[i] = best;
        }
        return new Tensor[] {Tensor.of(x, n, 6), Tensor.of(y, n)};
    }

    private static Model model() {
        RandomSeed.set(21);
        Model m = Sequential.of(
                Layers.input(6),
                Layers.dense(8, Activation.RELU),
                Layers.batchNormalization(),
                Layers.dense(3));
        m.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        return m;
    }

    /** Summary values of a file by tag, in file order, after checking the file-version event comes first. */
    private static Map<String, List<Point>> byTag(Path file) throws IOException {
        List<Event> events = EventFileReader.read(file);
        assertEquals("brain.Event:2", events.get(0).getFileVersion());
        Map<String, List<Point>> out = new TreeMap<>();
        for (Event e : events.subList(1, events.size())) {
            assertEquals(Event.WhatCase.SUMMARY, e.getWhatCase());
            for (Summary.Value v : e.getSummary().getValueList()) {
                out.computeIfAbsent(v.getTag(), t -> new ArrayList<>()).add(new Point(e.getStep(), v));
            }
        }
        return out;
    }

    private static List<Long> steps(List<Point> points) {
        return points.stream().map(Point::step).toList();
    }

    private static void assertScalars(List<Double> expected, List<Point> points, String what) {
        assertEquals(expected.size(), points.size(), what);
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(i, points.get(i).step(), what + " step");
            assertEquals(expected.get(i).floatValue(), points.get(i).value().getSimpleValue(), what + " epoch " + i);
        }
    }

    @Test
    void aRealFitWritesWhatTensorBoardReads() throws IOException {
        Tensor[] train = data(SAMPLES, 1);
        Tensor[] val = data(40, 2);
        Model m = model();
        TensorBoard tb = new TensorBoard(dir).histogramFreq(1).updateFreq(2);
        History h = m.fit(train[0], train[1], Fit.epochs(3).batchSize(BATCH).seed(5).verbose(0)
                .validation(val[0], val[1]).callbacks(tb));

        Path trainFile = EventFileReader.onlyEventFile(dir.resolve("train"));
        Path valFile = EventFileReader.onlyEventFile(dir.resolve("validation"));
        assertEquals(trainFile, tb.trainEventFile());
        assertEquals(valFile, tb.validationEventFile());
        Map<String, List<Point>> t = byTag(trainFile);
        Map<String, List<Point>> v = byTag(valFile);

        // Per-epoch scalars: the History's values, as 32-bit floats, at steps 0, 1, 2.
        assertScalars(h.get("loss"), t.get("epoch_loss"), "epoch_loss");
        assertScalars(h.get("accuracy"), t.get("epoch_accuracy"), "epoch_accuracy");
        assertScalars(h.get("val_loss"), v.get("epoch_loss"), "validation epoch_loss");
        assertScalars(h.get("val_accuracy"), v.get("epoch_accuracy"), "validation epoch_accuracy");
        assertScalars(List.of(1e-2, 1e-2, 1e-2), t.get("epoch_learning_rate"), "epoch_learning_rate");
        assertEquals(List.of(0L, 1L, 2L), steps(t.get("epoch_samples_per_second")));
        assertEquals(List.of(0L, 1L, 2L), steps(t.get("epoch_cpu_utilisation")));
        for (Point p : t.get("epoch_samples_per_second")) {
            assertTrue(p.value().getSimpleValue() > 0);
        }
        assertEquals(m.lastEpochStats().samplesPerSecond(),
                t.get("epoch_samples_per_second").get(2).value().getSimpleValue(),
                1e-6 * m.lastEpochStats().samplesPerSecond());

        // Batch scalars every 2 of the 12 steps; the running loss after an epoch's last batch is the epoch's loss.
        List<Long> every2 = List.of(2L, 4L, 6L, 8L, 10L, 12L);
        assertEquals(every2, steps(t.get("batch_loss")));
        assertEquals(every2, steps(t.get("batch_accuracy")));
        assertEquals(every2, steps(t.get("batch_learning_rate")));
        assertEquals(every2, steps(t.get("batch_steps_per_second")));
        for (int epoch = 0; epoch < 3; epoch++) {
            long step = (long) (epoch + 1) * STEPS;
            Point p = t.get("batch_loss").stream().filter(x -> x.step() == step).findFirst().orElseThrow();
            assertEquals(h.get("loss").get(epoch).floatValue(), p.value().getSimpleValue(), "batch_loss at " + step);
        }

        // Weight histograms each epoch; the last one is of the final weights.
        Map<String, Tensor> weights = m.weightsByName();
        for (Map.Entry<String, Tensor> w : weights.entrySet()) {
            List<Point> hs = t.get(w.getKey() + "/histogram");
            assertEquals(List.of(0L, 1L, 2L), steps(hs), w.getKey());
            HistogramProto last = hs.get(2).value().getHisto();
            float[] values = w.getValue().toArray();
            assertEquals(values.length, last.getNum(), w.getKey());
            assertEquals(values.length, last.getBucketList().stream().mapToDouble(Double::doubleValue).sum());
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            double sum = 0;
            for (float x : values) {
                min = Math.min(min, x);
                max = Math.max(max, x);
                sum += x;
            }
            assertEquals(min, last.getMin(), w.getKey());
            assertEquals(max, last.getMax(), w.getKey());
            assertEquals(sum, last.getSum(), 1e-9 * Math.max(1, Math.abs(sum)), w.getKey());
        }
        // Gradient histograms of the trainable weights (not of batch norm's moving statistics).
        Map<String, Integer> trainable = new LinkedHashMap<>();
        m.trainableVariables().forEach(var -> trainable.put(var.name(), var.shape().size()));
        for (Map.Entry<String, Integer> w : trainable.entrySet()) {
            List<Point> gs = t.get(w.getKey() + "/gradient_histogram");
            assertEquals(List.of(0L, 1L, 2L), steps(gs), w.getKey());
            assertEquals(w.getValue(), (int) gs.get(0).value().getHisto().getNum());
        }
        assertFalse(t.keySet().stream().anyMatch(k -> k.contains("moving") && k.endsWith("gradient_histogram")));

        // The model summary, once, as text.
        List<Point> summary = t.get("model_summary");
        assertEquals(1, summary.size());
        assertEquals(0, summary.get(0).step());
        String text = summary.get(0).value().getTensor().getStringVal(0).toStringUtf8();
        for (String line : m.summary().split("\n")) {
            assertTrue(text.contains("    " + line), "summary line '" + line + "' in\n" + text);
        }

        // The validation run holds only the validation figures.
        assertEquals(List.of("epoch_accuracy", "epoch_loss"), new ArrayList<>(v.keySet()));
    }

    @Test
    void histogramFrequencyAndEpochOnlyScalars() throws IOException {
        Tensor[] train = data(SAMPLES, 3);
        Model m = model();
        m.fit(train[0], train[1], Fit.epochs(3).batchSize(BATCH).seed(5).verbose(0)
                .callbacks(new TensorBoard(dir).histogramFreq(2).writeGradients(false).writeModelSummary(false)));
        assertFalse(Files.exists(dir.resolve("validation")), "no validation data, no validation run");
        Map<String, List<Point>> t = byTag(EventFileReader.onlyEventFile(dir.resolve("train")));
        assertFalse(t.keySet().stream().anyMatch(k -> k.startsWith("batch_") && !k.contains("/")),
                t.keySet().toString());
        assertFalse(t.keySet().stream().anyMatch(k -> k.endsWith("gradient_histogram")));
        assertFalse(t.containsKey("model_summary"));
        String kernel = m.trainableVariables().get(0).name() + "/histogram";
        assertEquals(List.of(0L, 2L), steps(t.get(kernel)));
    }

    @Test
    void aSecondFitStartsANewFile() throws IOException, InterruptedException {
        Tensor[] train = data(SAMPLES, 4);
        Model m = model();
        TensorBoard tb = new TensorBoard(dir);
        m.fit(train[0], train[1], Fit.epochs(1).batchSize(BATCH).verbose(0).callbacks(tb));
        Path first = tb.trainEventFile();
        m.fit(train[0], train[1], Fit.epochs(1).batchSize(BATCH).verbose(0).callbacks(tb));
        assertFalse(first.equals(tb.trainEventFile()));
        assertEquals(1, byTag(first).get("epoch_loss").size());
        assertEquals(1, byTag(tb.trainEventFile()).get("epoch_loss").size());
    }

    @Test
    void anUnwritableLogDirectoryIsNamed() throws IOException {
        Path file = Files.writeString(dir.resolve("logs"), "not a directory");
        Tensor[] train = data(SAMPLES, 5);
        Model m = model();
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> m.fit(train[0], train[1],
                Fit.epochs(1).batchSize(BATCH).verbose(0).callbacks(new TensorBoard(file))));
        assertTrue(e.getMessage().startsWith("TensorBoard: "), e.getMessage());
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }

    @Test
    void aFitThatFailsClosesTheFilesWithEveryFinishedEpochInThem() throws IOException {
        Tensor[] train = data(SAMPLES, 5);
        Model m = model();
        Path csv = dir.resolve("log.csv");
        List<String> hooks = new ArrayList<>();
        Callback failing = new Callback() {
            @Override
            public void onEpochEnd(int epoch, Map<String, Double> logs) {
                if (epoch == 1) {
                    throw new IllegalStateException("stop at epoch 2");
                }
            }

            @Override
            public void onTrainEnd(Map<String, Double> logs) {
                hooks.add("end");
            }

            @Override
            public void onTrainFailed(Throwable error) {
                hooks.add("failed: " + error.getMessage());
            }
        };
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> m.fit(train[0], train[1],
                Fit.epochs(3).batchSize(BATCH).verbose(0).validation(train[0], train[1])
                        .callbacks(new TensorBoard(dir.resolve("tb")),
                        new CsvLogger(csv), failing)));
        assertEquals("stop at epoch 2", e.getMessage());
        assertEquals(List.of("failed: stop at epoch 2"), hooks, "onTrainFailed instead of onTrainEnd");

        List<Path> files;
        try (Stream<Path> s = Files.walk(dir.resolve("tb"))) {
            files = s.filter(p -> p.getFileName().toString().startsWith("events.out.tfevents")).toList();
        }
        assertEquals(2, files.size(), "train and validation files: " + files);
        Set<Path> open = openFiles();
        for (Path f : files) {
            assertFalse(open.contains(f.toRealPath()), f + " is still open");
        }
        assertFalse(open.contains(csv.toRealPath()), "the CSV log is still open");
        Path trainFile = files.stream().filter(p -> p.toString().contains("train")).findFirst().orElseThrow();
        assertEquals(List.of(0L, 1L), steps(byTag(trainFile).get("epoch_loss")), "both finished epochs");
        assertEquals(3, Files.readAllLines(csv).size(), "header and the rows of epochs 1 and 2");
    }

    /** The files this process holds open (Linux: the links in /proc/self/fd). */
    private static Set<Path> openFiles() throws IOException {
        Set<Path> out = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    out.add(Files.readSymbolicLink(fd));
                } catch (IOException gone) {
                    // closed while listing
                }
            }
        }
        return out;
    }

    @Test
    void rejectsNegativeFrequencies() {
        assertThrows(IllegalArgumentException.class, () -> new TensorBoard(dir).histogramFreq(-1));
        assertThrows(IllegalArgumentException.class, () -> new TensorBoard(dir).updateFreq(-1));
    }
}

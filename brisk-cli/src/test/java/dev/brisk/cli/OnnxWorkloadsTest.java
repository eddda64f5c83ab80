package dev.brisk.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.brisk.cli.Workloads.Workload;
import dev.brisk.data.FashionMnist;
import dev.brisk.data.InMemoryDataset;
import dev.brisk.data.TrainTestSplit;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Model;
import dev.brisk.onnx.OnnxExport;
import dev.brisk.tensor.Tensor;
import java.nio.FloatBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reference workloads exported to ONNX run in ONNX Runtime with the predictions of Brisk's {@code predict}
 * (within 1e-5 of each output's largest magnitude), on Fashion-MNIST fixture images after a few training steps; and
 * {@code brisk train --onnx} writes a model whose test accuracy in ONNX Runtime is the run's own.
 */
class OnnxWorkloadsTest {
    private static final Path FIXTURE = Path.of("../brisk-core/src/test/resources/fashion-mnist-mini");

    @Test
    void referenceWorkloadsPredictTheSameInOnnxRuntime() throws Exception {
        TrainTestSplit data = FashionMnist.load(FIXTURE);
        // W1, W2, the ResNet-style Z1 (batch normalization, residual adds, strided convolutions), the VGG-style Z2
        // (dropout) and the LSTM W3.
        for (Workload w : List.of(Workload.W1, Workload.W2, Workload.Z1, Workload.Z2, Workload.W3)) {
            Model model = w.compiledModel();
            model.fit(w.prepare(data.train().take(128)), Fit.epochs(1).batchSize(64).verbose(0));
            Tensor x = w.prepare(data.test().take(16)).features();
            Tensor expected = model.predict(x, 16);
            float[] actual = runOnnx(OnnxExport.toBytes(model), x);
            float scale = 0;
            for (float v : expected.toArray()) {
                scale = Math.max(scale, Math.abs(v));
            }
            float[] e = expected.toArray();
            assertEquals(e.length, actual.length, w.id());
            for (int i = 0; i < e.length; i++) {
                assertTrue(Math.abs(actual[i] - e[i]) <= 1e-5 * scale, w.id() + " element " + i + ": ONNX Runtime "
                        + actual[i] + ", Brisk " + e[i] + " (output scale " + scale + ")");
            }
        }
    }

    @Test
    void trainWritesAnOnnxModelWithTheRunsTestAccuracy(@TempDir Path tmp) throws Exception {
        Path onnx = tmp.resolve("w2.onnx");
        CliRun r = CliRun.run("train", "--workload", "w2", "--epochs", "1", "--limit", "256", "--seed", "11",
                "--verbose", "0", "--data", FIXTURE.toString(), "--onnx", onnx.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("ONNX model (opset 17) written to " + onnx), r.out());
        Matcher m = Pattern.compile("test_acc=(\\d\\.\\d{4})").matcher(r.out());
        assertTrue(m.find(), r.out());
        double reported = Double.parseDouble(m.group(1));

        InMemoryDataset test = FashionMnist.load(FIXTURE).test();
        float[] logits = runOnnx(Files.readAllBytes(onnx), test.features());
        int correct = 0;
        for (int i = 0; i < test.size(); i++) {
            int best = 0;
            for (int c = 1; c < 10; c++) {
                best = logits[i * 10 + c] > logits[i * 10 + best] ? c : best;
            }
            correct += best == (int) test.labels().get(i) ? 1 : 0;
        }
        double accuracy = (double) correct / test.size();
        assertEquals(reported, accuracy, 0.00005 + 1e-9,
                String.format(Locale.ROOT, "ONNX Runtime's test accuracy %.4f vs the run's %.4f", accuracy, reported));
    }

    @Test
    void exportOfASavedModelPredictsLikeTheLoadedModel(@TempDir Path tmp) throws Exception {
        // The check: train --save m.keras, export --model m.keras --onnx m.onnx, the same predictions.
        Path keras = tmp.resolve("m.keras");
        Path onnx = tmp.resolve("m.onnx");
        CliRun train = CliRun.run("train", "--workload", "w2", "--epochs", "1", "--limit", "256", "--seed", "5",
                "--verbose", "0", "--data", FIXTURE.toString(), "--save", keras.toString());
        assertEquals(0, train.code(), train.err());
        CliRun export = CliRun.run("export", "--model", keras.toString(), "--onnx", onnx.toString());
        assertEquals(0, export.code(), export.err());
        assertTrue(export.out().contains("written to " + onnx), export.out());
        Tensor x = FashionMnist.load(FIXTURE).test().take(64).features();
        Tensor expected = dev.brisk.keras.KerasModels.load(keras).predict(x, 64);
        float[] actual = runOnnx(Files.readAllBytes(onnx), x);
        float[] e = expected.toArray();
        float scale = 0;
        for (float v : e) {
            scale = Math.max(scale, Math.abs(v));
        }
        for (int i = 0; i < e.length; i++) {
            assertTrue(Math.abs(actual[i] - e[i]) <= 1e-5 * scale, "element " + i + ": ONNX Runtime " + actual[i]
                    + ", Brisk " + e[i]);
        }
        CliRun missing = CliRun.run("export", "--model", tmp.resolve("none.keras").toString(), "--onnx",
                onnx.toString());
        assertEquals(1, missing.code(), missing.out());
    }

    @Test
    void onnxIntoADirectoryIsAUsageError(@TempDir Path tmp) {
        CliRun r = CliRun.run("train", "--workload", "w1", "--onnx", tmp.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("--onnx"), r.err());
    }

    /** The model's one output from ONNX Runtime (one thread) for its one float input. */
    static float[] runOnnx(byte[] onnx, Tensor x) throws OrtException {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(1);
            try (OrtSession session = env.createSession(onnx, options)) {
                int[] dims = x.shape().dims();
                long[] shape = new long[dims.length];
                for (int i = 0; i < dims.length; i++) {
                    shape[i] = dims[i];
                }
                String input = session.getInputNames().iterator().next();
                try (OnnxTensor t = OnnxTensor.createTensor(env, FloatBuffer.wrap(x.toArray()), shape);
                        OrtSession.Result result = session.run(Map.of(input, t))) {
                    FloatBuffer out = ((OnnxTensor) result.get(0)).getFloatBuffer();
                    float[] values = new float[out.remaining()];
                    out.get(values);
                    return values;
                }
            }
        }
    }
}

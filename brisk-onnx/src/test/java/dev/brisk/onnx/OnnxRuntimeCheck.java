package dev.brisk.onnx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.brisk.data.FashionMnist;
import dev.brisk.data.TrainTestSplit;
import dev.brisk.nn.Model;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs an exported model in ONNX Runtime and compares its outputs with Brisk's {@code predict} on the same inputs.
 *
 * <p>The tolerance is 1e-5 relative to the output's scale: {@code |onnx - brisk| <= 1e-5 * max|brisk|} for every
 * element of an output (the norm-wise relative error in the maximum norm). Element by element, a value that is a
 * sum cancelling to almost zero (a logit of 3e-4 among logits near 0.3) cannot be held to its own size: the two
 * runtimes add a dot product's terms in different orders, and each order's rounding is of the size of the terms.
 */
final class OnnxRuntimeCheck {
    static final double RELATIVE = 1e-5;
    static final Path FIXTURE = Path.of("../brisk-core/src/test/resources/fashion-mnist-mini");

    private OnnxRuntimeCheck() {
    }

    /** The repository's 1,000-image Fashion-MNIST fixture, pixels in [0, 1]. */
    static TrainTestSplit fashionMnist() throws IOException {
        return FashionMnist.load(FIXTURE);
    }

    /**
     * Exports {@code model}, runs it in ONNX Runtime on {@code inputs} and asserts every output equals
     * {@code model.predict(inputs)} within {@link #RELATIVE}.
     *
     * @return the largest relative difference seen
     */
    static double assertSamePredictions(Model model, Tensor... inputs) throws OrtException {
        return assertSamePredictions(OnnxExport.toBytes(model), model, inputs);
    }

    /**
     * Runs an exported model (one file, for inputs of several shapes) in ONNX Runtime on {@code inputs} and asserts
     * every output equals {@code model.predict(inputs)} within {@link #RELATIVE}.
     *
     * @return the largest relative difference seen
     */
    static double assertSamePredictions(byte[] onnx, Model model, Tensor... inputs) throws OrtException {
        Tensor[] expected = model.predict(inputs, inputs[0].shape().dim(0));
        Map<String, float[]> actual = run(onnx, model, inputs);
        List<String> names = new ArrayList<>(actual.keySet());
        assertEquals(expected.length, names.size(), "outputs");
        double worst = 0;
        for (int i = 0; i < expected.length; i++) {
            worst = Math.max(worst, assertClose(expected[i], actual.get(names.get(i)), names.get(i)));
        }
        System.out.printf(java.util.Locale.ROOT, "model %s: ONNX Runtime vs predict, largest difference %.2e of the"
                + " output's scale%n", model.name(), worst);
        return worst;
    }

    /** Runs ONNX bytes in ONNX Runtime (one intra-op thread): output name to values, in the model's output order. */
    static Map<String, float[]> run(byte[] onnx, Model model, Tensor... inputs) throws OrtException {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(1);
            options.setInterOpNumThreads(1);
            try (OrtSession session = env.createSession(onnx, options)) {
                Map<String, OnnxTensor> feed = new LinkedHashMap<>();
                List<String> inputNames = new ArrayList<>(session.getInputNames());
                try {
                    for (int i = 0; i < inputs.length; i++) {
                        String name = model.inputs().get(i).layer().name();
                        assertEquals(true, inputNames.contains(name), "input " + name + " in " + inputNames);
                        feed.put(name, tensor(env, inputs[i]));
                    }
                    Map<String, float[]> out = new LinkedHashMap<>();
                    try (OrtSession.Result result = session.run(feed)) {
                        for (Map.Entry<String, ai.onnxruntime.OnnxValue> e : result) {
                            FloatBuffer fb = ((OnnxTensor) e.getValue()).getFloatBuffer();
                            float[] values = new float[fb.remaining()];
                            fb.get(values);
                            out.put(e.getKey(), values);
                        }
                    }
                    return out;
                } finally {
                    for (OnnxTensor t : feed.values()) {
                        t.close();
                    }
                }
            }
        }
    }

    private static OnnxTensor tensor(OrtEnvironment env, Tensor t) throws OrtException {
        int[] dims = t.shape().dims();
        long[] shape = new long[dims.length];
        for (int i = 0; i < dims.length; i++) {
            shape[i] = dims[i];
        }
        if (t.dtype() == DType.INT32) {
            return OnnxTensor.createTensor(env, IntBuffer.wrap(t.toIntArray()), shape);
        }
        return OnnxTensor.createTensor(env, FloatBuffer.wrap(t.toArray()), shape);
    }

    /** Asserts ONNX Runtime's values equal Brisk's within the tolerance; returns the largest relative difference. */
    static double assertClose(Tensor expected, float[] actual, String name) {
        float[] e = expected.toArray();
        assertEquals(e.length, actual.length, name + ": element count");
        double scale = 0;
        for (float v : e) {
            scale = Math.max(scale, Math.abs(v));
        }
        double floor = Math.max(scale, Float.MIN_NORMAL);
        double worst = 0;
        int worstAt = -1;
        for (int i = 0; i < e.length; i++) {
            double rel = Math.abs((double) actual[i] - e[i]) / floor;
            if (!(rel <= worst)) {
                worst = rel;
                worstAt = i;
            }
        }
        if (!(worst <= RELATIVE)) {
            fail(name + ": ONNX Runtime " + actual[worstAt] + " vs Brisk " + e[worstAt] + " at element " + worstAt
                    + " of " + e.length + ": difference relative to the output's largest magnitude " + scale + ": " + worst + " > " + RELATIVE);
        }
        return worst;
    }

    /** Asserts two int arrays equal (helper for shape checks). */
    static void assertDims(long[] expected, long[] actual) {
        assertArrayEquals(expected, actual);
    }
}

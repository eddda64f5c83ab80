package dev.brisk.numerics;

import static dev.brisk.numerics.GradCheck.gaussian;
import static dev.brisk.numerics.LayerGradientCheckTest.checkLayer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.backend.Kernels;
import dev.brisk.graph.Graph;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.layers.BatchNormalization;
import dev.brisk.nn.layers.Layers;
import dev.brisk.ops.Node;
import dev.brisk.ops.UnaryFn;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Dot, SpatialDropout2D, GaussianNoise, Lambda and BatchNormalization's axis, center and scale: values against
 * Keras' formulas written out in double (GaussianNoise: the mean, standard deviation and share within one standard
 * deviation of 200,000 draws), gradients by finite differences (eager and compiled, vector and scalar kernels).
 */
class MergeNoiseNormLayersTest {
    @BeforeEach
    void seed() {
        RandomSeed.set(12);
    }

    private static Tensor run(Layer layer, boolean training, Tensor... inputs) {
        Graph g = Graph.eager(GradCheck.kernels("default"));
        List<Node> xs = new ArrayList<>();
        for (Tensor t : inputs) {
            xs.add(g.input("x", t));
        }
        return layer.invoke(g, xs, new CallContext(training, g.input("seed", Tensor.scalar(3f)))).value();
    }

    @Test
    void dotValuesAsKerasBatchDot() {
        Tensor a = Tensor.of(new float[] {1, 2, 3, -1, 0, 2}, 2, 3);
        Tensor b = Tensor.of(new float[] {4, 5, 6, 1, 1, 1}, 2, 3);
        Tensor y = run(Layers.dot(1, 1, false), false, a, b);
        assertEquals(Shape.of(2, 1), y.shape());
        assertEquals(32f, y.get(0));
        assertEquals(1f, y.get(1));
        Tensor cos = run(Layers.dot(-1, -1, true), false, a, b);
        assertEquals(32 / (Math.sqrt(14) * Math.sqrt(77)), cos.get(0), 1e-6);
        assertEquals(1 / (Math.sqrt(5) * Math.sqrt(3)), cos.get(1), 1e-6);
        // (1, 2, 3) . (1, 4, 3) along axes (2, 2): x @ y^T per sample; along (1, 1) on (1, 2, 3) and (1, 2, 4):
        // x^T @ y.
        Tensor x = gaussian(1, 1, 1, 2, 3);
        Tensor z = gaussian(2, 1, 1, 4, 3);
        Tensor xz = run(Layers.dot(2, 2, false), false, x, z);
        assertEquals(Shape.of(1, 2, 4), xz.shape());
        for (int i = 0; i < 2; i++) {
            for (int j = 0; j < 4; j++) {
                double s = 0;
                for (int c = 0; c < 3; c++) {
                    s += (double) x.get(i * 3 + c) * z.get(j * 3 + c);
                }
                assertEquals(s, xz.get(i * 4 + j), 1e-5);
            }
        }
        Tensor w = gaussian(3, 1, 1, 2, 4);
        Tensor xw = run(Layers.dot(1, 1, false), false, x, w);
        assertEquals(Shape.of(1, 3, 4), xw.shape());
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 4; j++) {
                double s = 0;
                for (int r = 0; r < 2; r++) {
                    s += (double) x.get(r * 3 + i) * w.get(r * 4 + j);
                }
                assertEquals(s, xw.get(i * 4 + j), 1e-5);
            }
        }
        // a vector against a matrix: (1, 3) . (1, 4, 3) along (1, 2) -> (1, 4)
        Tensor v = gaussian(4, 1, 1, 3);
        Tensor vz = run(Layers.dot(1, 2, false), false, v, z);
        assertEquals(Shape.of(1, 4), vz.shape());
        double s = 0;
        for (int c = 0; c < 3; c++) {
            s += (double) v.get(c) * z.get(3 + c);
        }
        assertEquals(s, vz.get(1), 1e-5);
    }

    @Test
    void dotRefusesMismatchedAxes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Layers.dot(1, 1, false).outputShape(List.of(Shape.of(3), Shape.of(4))));
        assertTrue(e.getMessage().contains("differ in size"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Layers.dot(1, 1, false).outputShape(List.of(Shape.of(2, 3, 4), Shape.of(2, 3, 4))));
        assertTrue(e.getMessage().contains("rank 2 or 3"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Layers.dot(0, 1, false));
    }

    @Test
    void spatialDropoutDropsWholeChannels() {
        Tensor x = gaussian(5, 1, 8, 3, 4, 16);
        float rate = 0.25f;
        Tensor y = run(Layers.spatialDropout2d(rate), true, x);
        int dropped = 0;
        for (int b = 0; b < 8; b++) {
            for (int c = 0; c < 16; c++) {
                boolean zero = y.get(((b * 3) * 4) * 16 + c) == 0f;
                dropped += zero ? 1 : 0;
                for (int p = 0; p < 12; p++) {
                    int i = (b * 12 + p) * 16 + c;
                    float expected = zero ? 0f : x.get(i) / (1 - rate);
                    assertEquals(expected, y.get(i), 1e-6f, "sample " + b + " channel " + c);
                }
            }
        }
        assertTrue(dropped > 10 && dropped < 60, "dropped " + dropped + " of 128 channels at rate 0.25");
        Tensor same = run(Layers.spatialDropout2d(rate), false, x);
        assertEquals(x.shape(), same.shape());
        for (int i = 0; i < x.shape().size(); i++) {
            assertEquals(x.get(i), same.get(i));
        }
    }

    @Test
    void gaussianNoiseIsNormalWithTheStddevInTrainingOnly() {
        int n = 200_000;
        Tensor x = Tensor.of(new float[n], 100, 2000);
        float stddev = 0.7f;
        Tensor y = run(Layers.gaussianNoise(stddev), true, x);
        double sum = 0;
        double sq = 0;
        int withinOne = 0;
        for (int i = 0; i < n; i++) {
            double v = y.get(i);
            sum += v;
            sq += v * v;
            withinOne += Math.abs(v) <= stddev ? 1 : 0;
        }
        double mean = sum / n;
        double sd = Math.sqrt(sq / n - mean * mean);
        // mean within 5 standard errors of 0; sd within 1%; P(|z| <= 1) = 0.6827 for a normal, within 5 errors
        assertEquals(0, mean, 5 * stddev / Math.sqrt(n), "mean");
        assertEquals(stddev, sd, 0.01 * stddev, "standard deviation");
        assertEquals(0.6827, withinOne / (double) n, 5 * Math.sqrt(0.6827 * 0.3173 / n), "share within 1 sd");
        Tensor off = run(Layers.gaussianNoise(stddev), false, x);
        for (int i = 0; i < n; i++) {
            assertEquals(0f, off.get(i));
        }
        assertThrows(IllegalArgumentException.class, () -> Layers.gaussianNoise(-1f));
    }

    @Test
    void batchNormalizationOptionsAsKeras() {
        // training, no scale and no offset: (x - mean) / sqrt(var + eps) per channel of axis 1
        Tensor x = gaussian(6, 2, 4, 3, 2);
        BatchNormalization bn = Layers.batchNormalization(1, false, false);
        Tensor y = run(bn, true, x);
        assertTrue(bn.gamma() == null && bn.beta() == null);
        assertEquals(2, bn.weights().size());
        for (int c = 0; c < 3; c++) {
            double mean = 0;
            double sq = 0;
            for (int b = 0; b < 4; b++) {
                for (int j = 0; j < 2; j++) {
                    mean += x.get((b * 3 + c) * 2 + j);
                }
            }
            mean /= 8;
            for (int b = 0; b < 4; b++) {
                for (int j = 0; j < 2; j++) {
                    double d = x.get((b * 3 + c) * 2 + j) - mean;
                    sq += d * d;
                }
            }
            double sd = Math.sqrt(sq / 8 + 1e-3);
            for (int b = 0; b < 4; b++) {
                for (int j = 0; j < 2; j++) {
                    int i = (b * 3 + c) * 2 + j;
                    assertEquals((x.get(i) - mean) / sd, y.get(i), 1e-5, "channel " + c);
                }
            }
        }
        BatchNormalization scaleOnly = Layers.batchNormalization(-1, false, true);
        run(scaleOnly, false, x);
        assertEquals(List.of("gamma", "moving_mean", "moving_variance"),
                scaleOnly.weights().stream().map(v -> v.name().substring(v.name().lastIndexOf('/') + 1)).toList());
        assertThrows(IllegalArgumentException.class,
                () -> Layers.batchNormalization(3, true, true).outputShape(List.of(Shape.of(3, 2))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void gradients(String backend) {
        Kernels k = GradCheck.kernels(backend);
        checkLayer(k, "dot vectors normalized", Layers.dot(1, 1, true), true, null, gaussian(7, 1, 3, 4),
                gaussian(8, 1, 3, 4));
        checkLayer(k, "dot matrices", Layers.dot(1, 2, false), true, null, gaussian(9, 1, 2, 3, 4),
                gaussian(10, 1, 2, 5, 3));
        checkLayer(k, "spatial dropout", Layers.spatialDropout2d(0.4f), true, null, gaussian(11, 1, 3, 2, 3, 4));
        checkLayer(k, "batch norm axis 1 no offset", Layers.batchNormalization(1, false, true), true,
                List.of(gaussian(12, 0.5, 3)), gaussian(13, 1, 4, 3, 2));
        checkLayer(k, "batch norm no scale", Layers.batchNormalization(-1, true, false), true,
                List.of(gaussian(14, 0.5, 2)), gaussian(15, 1, 4, 3, 2));
        checkLayer(k, "gaussian noise", Layers.gaussianNoise(0.5f), true, null, gaussian(17, 1, 3, 4));
        checkLayer(k, "lambda", Layers.lambda((g, x) -> g.mul(x, g.unary(UnaryFn.TANH, x))), true, null,
                gaussian(16, 1, 2, 5));
    }

    @Test
    void lambdaShapesAndRefusals() {
        Layer square = Layers.lambda((g, x) -> g.sum(g.square(x), true, 2));
        assertEquals(Shape.of(3, 1), square.outputShape(List.of(Shape.of(3, 4))));
        Layer bad = Layers.lambda((g, x) -> g.sumAll(x));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> bad.outputShape(List.of(Shape.of(3))));
        assertTrue(e.getMessage().contains("batch"), e.getMessage());
        UnsupportedOperationException u = assertThrows(UnsupportedOperationException.class, square::kerasConfig);
        assertTrue(u.getMessage().contains(square.name()) && u.getMessage().contains("Lambda"), u.getMessage());
    }
}

package dev.brisk.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.History;
import dev.brisk.losses.Losses;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The classification and regression metrics inside {@code fit} and {@code evaluate}: they appear in the history under
 * Keras' names (with {@code val_} for validation), and what {@code evaluate} reports equals the metric recomputed
 * from {@code predict} on the same data.
 */
class MetricsInTrainingTest {
    @Test
    void binaryClassifierLogsPrecisionRecallAucAndEvaluateAgreesWithPredict() {
        Random r = new Random(5);
        int n = 256;
        float[] x = new float[n * 2];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            x[2 * i] = (float) r.nextGaussian();
            x[2 * i + 1] = (float) r.nextGaussian();
            y[i] = x[2 * i] + 0.5f * x[2 * i + 1] + 0.3f * r.nextGaussian() > 0 ? 1 : 0;
        }
        Tensor features = Tensor.of(x, n, 2);
        Tensor labels = Tensor.of(y, n, 1);
        Sequential model = Sequential.of(Layers.input(2), Layers.dense(8, Activation.RELU),
                Layers.dense(1, Activation.SIGMOID));
        model.compile(Optimizers.adam(0.05f), Losses.binaryCrossentropy(), Metrics.precision(), Metrics.recall(),
                Metrics.auc());
        History h = model.fit(features, labels, Fit.epochs(8).batchSize(32).seed(3).verbose(0)
                .validation(features, labels));
        for (String key : new String[] {"precision", "recall", "auc", "val_precision", "val_recall", "val_auc"}) {
            assertTrue(h.asMap().containsKey(key), key + " missing from " + h.asMap().keySet());
        }
        assertTrue(h.last("auc") > 0.9, h.toString());

        Map<String, Double> evaluated = model.evaluate(features, labels, 64);
        Tensor predicted = model.predict(features, 64);
        for (MetricSpec spec : new MetricSpec[] {Metrics.precision(), Metrics.recall(), Metrics.auc()}) {
            Metric m = spec.create(MetricSpec.Target.BINARY);
            m.update(labels, predicted);
            assertEquals(m.result(), evaluated.get(m.name()), 1e-6, m.name());
        }
    }

    @Test
    void regressionLogsErrorsAndR2() {
        Random r = new Random(6);
        int n = 200;
        float[] x = new float[n];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = (float) r.nextGaussian();
            y[i] = 3 * x[i] + 1 + 0.1f * (float) r.nextGaussian();
        }
        Tensor features = Tensor.of(x, n, 1);
        Tensor targets = Tensor.of(y, n, 1);
        Sequential model = Sequential.of(Layers.input(1), Layers.dense(1));
        model.compile(Optimizers.adam(0.1f), Losses.meanSquaredError(), Metrics.meanAbsoluteError(),
                Metrics.rootMeanSquaredError(), Metrics.r2Score());
        model.fit(features, targets, Fit.epochs(40).batchSize(20).seed(1).verbose(0));
        Map<String, Double> evaluated = model.evaluate(features, targets, 50);
        assertTrue(evaluated.get("r2_score") > 0.95, evaluated.toString());
        double rmse = evaluated.get("root_mean_squared_error");
        assertEquals(Math.sqrt(evaluated.get("loss")), rmse, 1e-3 * rmse + 1e-6, evaluated.toString());
    }
}

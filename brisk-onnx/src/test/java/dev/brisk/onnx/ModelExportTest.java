package dev.brisk.onnx;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.data.InMemoryDataset;
import dev.brisk.data.TrainTestSplit;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Input;
import dev.brisk.nn.Model;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.SymbolicTensor;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.Padding;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import org.junit.jupiter.api.Test;

/**
 * Exported models of each layer family run in ONNX Runtime with Brisk's predictions, on Fashion-MNIST fixture
 * images after a few training steps (so that biases, batch-norm moving statistics and every weight are away from
 * their initial values).
 */
class ModelExportTest {
    private static final int SAMPLES = 16;

    private static InMemoryDataset[] data() throws Exception {
        TrainTestSplit split = OnnxRuntimeCheck.fashionMnist();
        return new InMemoryDataset[] {split.train().take(192), split.test().take(SAMPLES)};
    }

    private static void trainBriefly(Model model, InMemoryDataset train) {
        model.compile(Optimizers.adam(1e-3f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        model.fit(train, Fit.epochs(1).batchSize(64).verbose(0));
    }

    @Test
    void residualBlocksWithBatchNormalization() throws Exception {
        InMemoryDataset[] d = data();
        SymbolicTensor in = Input.of(28, 28, 1);
        SymbolicTensor x = Layers.conv2d(8, 3, 1, Padding.SAME, Activation.LINEAR).apply(in);
        x = Layers.batchNormalization().apply(x);
        x = Layers.activation(Activation.RELU).apply(x);
        SymbolicTensor y = Layers.conv2d(16, 3, 2, Padding.SAME, Activation.LINEAR).apply(x);
        y = Layers.batchNormalization().apply(y);
        y = Layers.activation(Activation.RELU).apply(y);
        y = Layers.conv2d(16, 3, 1, Padding.SAME, Activation.LINEAR).apply(y);
        y = Layers.batchNormalization().apply(y);
        SymbolicTensor shortcut = Layers.conv2d(16, 1, 2, Padding.SAME, Activation.LINEAR).apply(x);
        shortcut = Layers.batchNormalization().apply(shortcut);
        SymbolicTensor sum = Layers.activation(Activation.RELU).apply(Layers.add().apply(y, shortcut));
        SymbolicTensor pooled = Layers.averagePooling2d(3, 2, Padding.SAME).apply(sum);
        SymbolicTensor out = Layers.dense(10).apply(Layers.globalAveragePooling2d().apply(pooled));
        Model model = Model.of(in, out);
        trainBriefly(model, d[0]);
        OnnxRuntimeCheck.assertSamePredictions(model, d[1].features());
    }

    @Test
    void recurrentLayers() throws Exception {
        InMemoryDataset[] d = data();
        for (int variant = 0; variant < 3; variant++) {
            SymbolicTensor in = Input.of(28, 28);
            SymbolicTensor h = switch (variant) {
                case 0 -> Layers.lstm(24, true, false).apply(in);
                case 1 -> Layers.gru(24, true, true).apply(in);
                default -> Layers.simpleRnn(24, true, false).apply(in);
            };
            SymbolicTensor last = switch (variant) {
                case 0 -> Layers.gru(16).apply(h);
                case 1 -> Layers.lstm(16, false, true).apply(h);
                default -> Layers.simpleRnn(16, false, true).apply(h);
            };
            Model model = Model.of(in, Layers.dense(10).apply(last));
            trainBriefly(model, d[0].reshapeFeatures(Shape.of(28, 28)));
            OnnxRuntimeCheck.assertSamePredictions(model, d[1].reshapeFeatures(Shape.of(28, 28)).features());
        }
    }

    @Test
    void transformerBlock() throws Exception {
        InMemoryDataset[] d = data();
        SymbolicTensor in = Input.of(28, 28);
        SymbolicTensor x = Layers.dense(32).apply(in);
        SymbolicTensor attended = Layers.multiHeadAttention(4, 8, true).apply(x, x);
        x = Layers.layerNormalization().apply(Layers.add().apply(x, attended));
        SymbolicTensor ff = Layers.dense(64, Activation.GELU).apply(x);
        ff = Layers.dense(32).apply(ff);
        x = Layers.layerNormalization().apply(Layers.add().apply(x, ff));
        SymbolicTensor out = Layers.dense(10, Activation.SOFTMAX).apply(Layers.globalAveragePooling1d().apply(x));
        Model model = Model.of(in, out);
        model.compile(Optimizers.adam(1e-3f), Losses.sparseCategoricalCrossentropy(false), Metrics.accuracy());
        model.fit(d[0].reshapeFeatures(Shape.of(28, 28)), Fit.epochs(1).batchSize(64).verbose(0));
        OnnxRuntimeCheck.assertSamePredictions(model, d[1].reshapeFeatures(Shape.of(28, 28)).features());
    }

    @Test
    void exportedModelTakesAnyBatchSize() throws Exception {
        Model model = Sequential.of(Layers.input(28, 28), Layers.conv1d(8, 3, 1, Padding.CAUSAL, Activation.RELU),
                Layers.lstm(8), Layers.dense(4));
        for (int batch : new int[] {1, 5}) {
            float[] x = new float[batch * 28 * 28];
            for (int i = 0; i < x.length; i++) {
                x[i] = (float) Math.sin(i * 0.37);
            }
            double worst = OnnxRuntimeCheck.assertSamePredictions(model, Tensor.of(x, batch, 28, 28));
            assertTrue(worst <= OnnxRuntimeCheck.RELATIVE);
        }
    }
}

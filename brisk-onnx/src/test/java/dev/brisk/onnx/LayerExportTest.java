package dev.brisk.onnx;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.data.InMemoryDataset;
import dev.brisk.graph.Graph;
import dev.brisk.nn.Activation;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.Layer;
import dev.brisk.nn.Input;
import dev.brisk.nn.Model;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.SymbolicTensor;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.Padding;
import dev.brisk.ops.Node;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The remaining layers and model shapes, exported and run in ONNX Runtime against {@code predict}. */
class LayerExportTest {
    @Test
    void tokenIdsEmbeddingWithMaskAndOneDimensionalLayers() throws Exception {
        int steps = 12;
        int[] ids = new int[6 * steps];
        Random r = new Random(7);
        for (int i = 0; i < ids.length; i++) {
            ids[i] = i % steps >= steps - 1 - (i / steps) ? 0 : 1 + r.nextInt(49); // padded ends of varying length
        }
        Tensor tokens = Tensor.ofInts(ids, 6, steps);

        Model masked = Sequential.of(Layers.input(DType.INT32, steps), Layers.embedding(50, 8, true),
                Layers.globalAveragePooling1d(), Layers.dense(3));
        OnnxRuntimeCheck.assertSamePredictions(masked, tokens);

        Model convolutional = Sequential.of(Layers.input(DType.INT32, steps), Layers.embedding(50, 8),
                Layers.conv1d(8, 3, 1, Padding.SAME, Activation.TANH),
                Layers.conv1d(8, 3, 1, Padding.CAUSAL, Activation.GELU),
                Layers.conv1d(8, 3, Padding.CAUSAL, 2, Activation.RELU),
                Layers.conv1d(8, 2, Padding.SAME, 3, Activation.LINEAR),
                Layers.maxPooling1d(2), Layers.averagePooling1d(2), Layers.globalMaxPooling1d(),
                Layers.dense(3, Activation.SIGMOID));
        OnnxRuntimeCheck.assertSamePredictions(convolutional, tokens);
    }

    @Test
    void twoInputsTwoOutputsReshapeConcatenateAndActivations() throws Exception {
        InMemoryDataset test = OnnxRuntimeCheck.fashionMnist().test().take(8);
        SymbolicTensor pixels = Input.of(784);
        SymbolicTensor extra = Input.of(5);
        SymbolicTensor image = Layers.reshape(28, 28, 1).apply(pixels);
        SymbolicTensor a = Layers.conv2d(6, 3, 2, Padding.SAME, Activation.LEAKY_RELU).apply(image);
        a = Layers.maxPooling2d(3, 2, Padding.SAME).apply(a);
        SymbolicTensor b = Layers.averagePooling2d(2).apply(image);
        b = Layers.conv2d(6, 5, 2, Padding.VALID, Activation.SIGMOID).apply(b);
        SymbolicTensor joined = Layers.concatenate().apply(Layers.flatten().apply(a), Layers.flatten().apply(b),
                extra);
        SymbolicTensor hidden = Layers.dropout(0.3f).apply(Layers.dense(16, Activation.TANH).apply(joined));
        SymbolicTensor classes = Layers.dense(10, Activation.SOFTMAX).apply(hidden);
        SymbolicTensor score = Layers.dense(1).apply(Layers.batchNormalization().apply(hidden));
        Model model = Model.of(List.of(pixels, extra), List.of(classes, score));
        float[] e = new float[8 * 5];
        for (int i = 0; i < e.length; i++) {
            e[i] = (float) Math.cos(i);
        }
        OnnxRuntimeCheck.assertSamePredictions(model, test.flatten().features(), Tensor.of(e, 8, 5));
    }

    /** Adds each step's position to it: a constant {@code [batch, steps, 1]} as large as the batch, rows alike. */
    private static final class AddPositions extends Layer {
        AddPositions() {
            super(null);
        }

        @Override
        public Shape outputShape(List<Shape> inputShapes) {
            return single(inputShapes);
        }

        @Override
        protected Node call(Graph g, List<Node> inputs, CallContext ctx) {
            Shape s = inputs.get(0).shape();
            float[] positions = new float[s.dim(0) * s.dim(1)];
            for (int i = 0; i < positions.length; i++) {
                positions[i] = i % s.dim(1);
            }
            return g.add(inputs.get(0), g.constant(Tensor.of(positions, s.dim(0), s.dim(1), 1)));
        }
    }

    @Test
    void aConstantAsLargeAsTheBatchIsExpandedFromItsRow() throws Exception {
        Model model = Sequential.of(Layers.input(7, 3), new AddPositions(), Layers.dense(2));
        for (int batch : new int[] {1, 4}) {
            float[] x = new float[batch * 21];
            for (int i = 0; i < x.length; i++) {
                x[i] = (float) Math.sin(i);
            }
            OnnxRuntimeCheck.assertSamePredictions(model, Tensor.of(x, batch, 7, 3));
        }
    }

    /**
     * Merges that broadcast as Keras' do: features times per-step weights of shape (steps, 1), plus a lower-rank input
     * added to every step (aligned after the batch axis by a reshape), at two batch sizes.
     */
    @Test
    void broadcastMergesExportAsTheyPredict() throws Exception {
        SymbolicTensor in = Input.of(5, 3);
        SymbolicTensor h = Layers.dense(4, Activation.TANH).apply(in);
        SymbolicTensor weights = Layers.dense(1, Activation.SIGMOID).apply(h);
        SymbolicTensor weighted = Layers.multiply().apply(h, weights);
        SymbolicTensor summary = Layers.globalAveragePooling1d().apply(weighted);
        SymbolicTensor out = Layers.dense(2).apply(Layers.flatten().apply(Layers.add().apply(weighted, summary)));
        Model model = Model.of(in, out);
        for (int batch : new int[] {1, 3}) {
            float[] x = new float[batch * 15];
            for (int i = 0; i < x.length; i++) {
                x[i] = (float) Math.sin(0.7 * i);
            }
            OnnxRuntimeCheck.assertSamePredictions(model, Tensor.of(x, batch, 5, 3));
        }
    }

    /**
     * The layers no other export test runs: the remaining merges (Multiply, Subtract, Average, Maximum, Minimum),
     * activation layers (ReLU with a cap, slope and threshold, ELU, PReLU, Softmax), every activation function, and
     * the reshaping layers (Permute, RepeatVector, UpSampling2D, ZeroPadding2D).
     */
    @Test
    void remainingLayersAndEveryActivation() throws Exception {
        SymbolicTensor in = Input.of(6, 6, 1);
        SymbolicTensor x = Layers.zeroPadding2d(1).apply(in);
        x = Layers.conv2d(4, 3, 2, Padding.VALID, Activation.LINEAR).apply(x);
        x = Layers.prelu(1, 2).apply(x);
        x = Layers.upSampling2d(2).apply(x);
        x = Layers.relu(4f, 0.1f, 0.2f).apply(x);
        x = Layers.conv2d(4, 3, 2, Padding.SAME, Activation.SELU).apply(x);
        SymbolicTensor flat = Layers.flatten().apply(x);
        SymbolicTensor a = Layers.dense(8, Activation.MISH).apply(flat);
        SymbolicTensor b = Layers.leakyRelu(0.1f).apply(Layers.dense(8, Activation.SILU).apply(flat));
        SymbolicTensor merged = Layers.maximum().apply(Layers.multiply().apply(a, b), Layers.subtract().apply(a, b),
                Layers.minimum().apply(a, b));
        merged = Layers.average().apply(merged, Layers.elu(0.5f).apply(merged));
        java.util.List<SymbolicTensor> acts = new java.util.ArrayList<>();
        for (Activation f : Activation.values()) {
            acts.add(Layers.dense(2, f).apply(merged));
        }
        SymbolicTensor seq = Layers.permute(2, 1).apply(Layers.repeatVector(2).apply(
                Layers.concatenate().apply(acts.toArray(new SymbolicTensor[0]))));
        SymbolicTensor out = Layers.softmax(-1).apply(Layers.dense(3).apply(Layers.flatten().apply(seq)));
        Random r = new Random(4);
        float[] pixels = new float[5 * 36];
        for (int i = 0; i < pixels.length; i++) {
            pixels[i] = (float) r.nextGaussian();
        }
        OnnxRuntimeCheck.assertSamePredictions(Model.of(in, out), Tensor.of(pixels, 5, 6, 6, 1));
    }

    @Test
    void anUnbuiltModelIsRefusedAndNoFileIsWritten(@TempDir Path dir) {
        Model model = Sequential.of(Layers.dense(3));
        Path file = dir.resolve("m.onnx");
        OnnxExportException e = assertThrows(OnnxExportException.class, () -> OnnxExport.export(model, file));
        assertTrue(e.getMessage().contains("not built"), e.getMessage());
        assertFalse(Files.exists(file));
    }

    @Test
    void exportWritesTheFile(@TempDir Path dir) throws Exception {
        Model model = Sequential.of(Layers.input(4), Layers.dense(2));
        Path file = dir.resolve("sub/m.onnx");
        OnnxExport.export(model, file);
        byte[] bytes = Files.readAllBytes(file);
        dev.brisk.onnx.proto.ModelProto proto = dev.brisk.onnx.proto.ModelProto.parseFrom(bytes);
        assertTrue(proto.getIrVersion() == 8 && proto.getOpsetImport(0).getVersion() == 17, proto.toString());
        assertTrue(proto.getGraph().getInput(0).getType().getTensorType().getShape().getDim(0).getDimParam()
                .equals("batch"));
        float[] x = {1, 2, 3, 4, -1, -2, -3, -4};
        OnnxRuntimeCheck.assertSamePredictions(model, Tensor.of(x, 2, 4));
    }
}

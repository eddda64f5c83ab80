package dev.brisk.onnx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.nn.Activation;
import dev.brisk.nn.Input;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.SymbolicTensor;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.Padding;
import dev.brisk.onnx.proto.ModelProto;
import dev.brisk.onnx.proto.TensorShapeProto;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Models whose sequence length is left open ({@code Shape.OPEN}, Keras' {@code None}) exported once, with the length
 * as ONNX's dynamic {@code length} dimension, and run in ONNX Runtime at several lengths (none of them the lengths
 * the exporter traces), each against {@code predict} at that length. Token ids carry padding (id 0) at the start and
 * the end of rows, so the masks built from the input at run time are checked too.
 */
class OpenLengthExportTest {
    private static final int VOCAB = 30;
    private static final int[] LENGTHS = {4, 11, 16};

    /** Weights from one seed, so each comparison's margin is the same on every run. */
    @BeforeEach
    void seedWeights() {
        RandomSeed.set(20261207);
    }

    /** Ids in {@code 1 .. VOCAB - 1}, with padding first in row 0, last in row 1, none in row 2. */
    private static Tensor paddedIds(int steps, long seed) {
        Random r = new Random(seed);
        int rows = 3;
        int[] ids = new int[rows * steps];
        for (int i = 0; i < ids.length; i++) {
            int row = i / steps;
            int s = i % steps;
            boolean pad = row == 0 && s < steps / 3 || row == 1 && s >= steps - steps / 4;
            ids[i] = pad ? 0 : 1 + r.nextInt(VOCAB - 1);
        }
        return Tensor.ofInts(ids, rows, steps);
    }

    /** Exports {@code model} once and checks ONNX Runtime against {@code predict} at every length of LENGTHS. */
    private static ModelProto assertSameAtEveryLength(Model model) throws Exception {
        byte[] onnx = OnnxExport.toBytes(model);
        for (int steps : LENGTHS) {
            OnnxRuntimeCheck.assertSamePredictions(onnx, model, paddedIds(steps, steps));
        }
        return ModelProto.parseFrom(onnx);
    }

    private static List<String> dimNames(TensorShapeProto shape) {
        return shape.getDimList().stream()
                .map(d -> d.hasDimParam() ? d.getDimParam() : d.hasDimValue() ? "" + d.getDimValue() : "?")
                .toList();
    }

    @Test
    void embeddingRecurrentAndDenseTakeAnyLength() throws Exception {
        for (boolean masked : new boolean[] {true, false}) {
            SymbolicTensor in = Input.of(DType.INT32, Shape.OPEN);
            SymbolicTensor e = Layers.embedding(VOCAB, 6, masked).apply(in);
            SymbolicTensor seq = Layers.lstm(5, true, false).apply(e);
            SymbolicTensor perStep = Layers.dense(2).apply(seq);
            SymbolicTensor both = Layers.bidirectional(Layers.simpleRnn(3, true, false)).apply(seq);
            SymbolicTensor last = Layers.gru(4).apply(both);
            Model model = Model.of(List.of(in), List.of(perStep, Layers.dense(3).apply(last)));
            ModelProto proto = assertSameAtEveryLength(model);
            assertEquals(List.of("batch", "length"), dimNames(proto.getGraph().getInput(0).getType().getTensorType()
                    .getShape()));
            assertEquals(List.of("batch", "length", "2"), dimNames(proto.getGraph().getOutput(0).getType()
                    .getTensorType().getShape()));
            assertEquals(List.of("batch", "3"), dimNames(proto.getGraph().getOutput(1).getType().getTensorType()
                    .getShape()));
        }
    }

    @Test
    void convolutionsAndPoolingTakeAnyLength() throws Exception {
        SymbolicTensor in = Input.of(DType.INT32, Shape.OPEN);
        SymbolicTensor x = Layers.embedding(VOCAB, 6).apply(in);
        x = Layers.conv1d(5, 3, 1, Padding.CAUSAL, Activation.RELU).apply(x);
        x = Layers.conv1d(4, 3, 1, Padding.SAME, Activation.TANH).apply(x);
        SymbolicTensor strided = Layers.conv1d(4, 3, 2, Padding.SAME, Activation.LINEAR).apply(x);
        SymbolicTensor pooled = Layers.conv1d(3, 2, 1, Padding.VALID, Activation.LINEAR)
                .apply(Layers.maxPooling1d(2).apply(x));
        SymbolicTensor merged = Layers.concatenate().apply(Layers.globalAveragePooling1d().apply(pooled),
                Layers.globalMaxPooling1d().apply(strided));
        // The sequence output's length is a pooled one, floor(length / 2) - 1: an unnamed dynamic dimension.
        Model model = Model.of(List.of(in), List.of(Layers.dense(3).apply(merged), pooled));
        ModelProto proto = assertSameAtEveryLength(model);
        assertEquals(List.of("batch", "?", "3"), dimNames(proto.getGraph().getOutput(1).getType().getTensorType()
                .getShape()));
    }

    @Test
    void causalAttentionBlockWithPositionalEmbeddingTakesAnyLength() throws Exception {
        int maxLength = 20;
        for (boolean masked : new boolean[] {true, false}) {
            SymbolicTensor ids = Input.of(DType.INT32, Shape.OPEN);
            SymbolicTensor tokens = Layers.embedding(VOCAB, 8, masked).apply(ids);
            SymbolicTensor positions = Layers.embedding(maxLength, 8).apply(Layers.positions().apply(ids));
            SymbolicTensor x = Layers.add().apply(tokens, positions);
            SymbolicTensor attended = Layers.multiHeadAttention(2, 4, true).apply(x, x);
            x = Layers.layerNormalization().apply(Layers.add().apply(x, attended));
            SymbolicTensor ff = Layers.dense(8).apply(Layers.dense(16, Activation.GELU).apply(x));
            x = Layers.layerNormalization().apply(Layers.add().apply(x, ff));
            Model model = Model.of(ids, Layers.dense(VOCAB).apply(x));
            ModelProto proto = assertSameAtEveryLength(model);
            assertEquals(List.of("batch", "length", "" + VOCAB), dimNames(proto.getGraph().getOutput(0).getType()
                    .getTensorType().getShape()));
        }
    }

    @Test
    void twoInputsWithLengthsOfTheirOwn() throws Exception {
        SymbolicTensor queries = Input.of(DType.INT32, Shape.OPEN);
        SymbolicTensor context = Input.of(DType.INT32, Shape.OPEN);
        SymbolicTensor q = Layers.embedding(VOCAB, 8, true).apply(queries);
        SymbolicTensor c = Layers.lstm(8, true, false).apply(Layers.embedding(VOCAB, 8, true).apply(context));
        SymbolicTensor attended = Layers.multiHeadAttention(2, 4).apply(q, c);
        Model model = Model.of(List.of(queries, context), List.of(Layers.dense(3).apply(attended)));
        byte[] onnx = OnnxExport.toBytes(model);
        int[][] lengths = {{4, 9}, {11, 3}, {6, 6}};
        for (int[] l : lengths) {
            OnnxRuntimeCheck.assertSamePredictions(onnx, model, paddedIds(l[0], l[0]), paddedIds(l[1], 100 + l[1]));
        }
        ModelProto proto = ModelProto.parseFrom(onnx);
        String first = model.inputs().get(0).layer().name();
        String second = model.inputs().get(1).layer().name();
        assertEquals(List.of("batch", second + "_axis1"), dimNames(proto.getGraph().getInput(1).getType()
                .getTensorType().getShape()));
        assertEquals(List.of("batch", first + "_axis1", "3"), dimNames(proto.getGraph().getOutput(0).getType()
                .getTensorType().getShape()));
    }

    @Test
    void aDilatedConvolutionOverAnOpenLengthIsRefusedNamingTheLayer(@TempDir Path dir) {
        SymbolicTensor in = Input.of(DType.INT32, Shape.OPEN);
        SymbolicTensor x = Layers.embedding(VOCAB, 4).apply(in);
        x = Layers.conv1d(3, 2, Padding.CAUSAL, 2, Activation.RELU).apply(x);
        Model model = Model.of(in, Layers.dense(2).apply(Layers.globalAveragePooling1d().apply(x)));
        Path file = dir.resolve("m.onnx");
        OnnxExportException e = assertThrows(OnnxExportException.class, () -> OnnxExport.export(model, file));
        assertTrue(e.getMessage().startsWith("layer '" + model.layers().get(2).name() + "' (Conv1D)"),
                e.getMessage());
        assertTrue(e.getMessage().contains("sequence length"), e.getMessage());
        assertFalse(Files.exists(file));
    }
}

package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.MultiHeadAttention;
import dev.brisk.nn.layers.Padding;
import dev.brisk.ops.FusedAttrs;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Training with the planner's fusion ends with exactly the weights of training without it: fusion changes how
 * many passes a step makes, never a bit of the result.
 */
class FusedTrainingTest {
    private static final String FUSION = "brisk.fusion";

    /**
     * W2's layer sequence at a small size: conv-relu, pool, conv-relu, pool, dense-relu, dense. The first layer has
     * 16 channels, a whole 512-bit vector, so that its gradients read the pool's cells where the backend can.
     */
    static Model smallW2() {
        return Sequential.of(
                Layers.input(10, 10, 1),
                Layers.conv2d(16, 3, Activation.RELU),
                Layers.maxPooling2d(2),
                Layers.conv2d(16, 3, Activation.RELU),
                Layers.maxPooling2d(2),
                Layers.flatten(),
                Layers.dense(12, Activation.RELU),
                Layers.dense(3));
    }

    /**
     * Convolutions and a Dense layer each followed by BatchNormalization and relu: the plan fuses relu into each
     * batch normalization and takes relu's gradient inside the two batch normalization gradients. 16 and 32
     * channels are whole 512-bit vectors, 8 takes the scalar loops.
     */
    static Model batchNormRelu() {
        return Sequential.of(
                Layers.input(8, 8, 1),
                Layers.conv2d(16, 3, Activation.LINEAR),
                Layers.batchNormalization(),
                Layers.activation(Activation.RELU),
                Layers.conv2d(32, 3, Activation.LINEAR),
                Layers.batchNormalization(),
                Layers.activation(Activation.RELU),
                Layers.flatten(),
                Layers.dense(8),
                Layers.batchNormalization(),
                Layers.activation(Activation.RELU),
                Layers.dense(3));
    }

    /**
     * A residual block: conv-BN-relu-conv-BN added to its input, then relu; the second batch normalization, the add
     * and relu run as one call, which never stores the normalized values.
     */
    static Model residual() {
        return residual(16);
    }

    /**
     * {@link #residual()} with {@code channels} channels throughout; at 32 (whole panels of gemm's register tile)
     * both convolutions take Winograd's kernels in all three passes.
     */
    static Model residual(int channels) {
        SymbolicTensor input = Input.of(6, 6, channels);
        SymbolicTensor y = Layers.conv2d(channels, 3, 1, Padding.SAME, Activation.LINEAR).apply(input);
        y = Layers.batchNormalization().apply(y);
        y = Layers.activation(Activation.RELU).apply(y);
        y = Layers.conv2d(channels, 3, 1, Padding.SAME, Activation.LINEAR).apply(y);
        y = Layers.batchNormalization().apply(y);
        y = Layers.activation(Activation.RELU).apply(Layers.add().apply(y, input));
        y = Layers.globalAveragePooling2d().apply(y);
        return Model.of(input, Layers.dense(3).apply(y));
    }

    /**
     * Convolution and Dense layers with silu ({@code x * sigmoid(x)}) and hard silu: their activations and those
     * activations' gradients run as general elementwise chains.
     */
    static Model silu() {
        return Sequential.of(
                Layers.input(8, 8, 1),
                Layers.conv2d(8, 3, Activation.SILU),
                Layers.flatten(),
                Layers.dense(16, Activation.HARD_SILU),
                Layers.dense(12, Activation.SILU),
                Layers.dense(3));
    }

    /**
     * A transformer block as W4 has it, small: causal attention and a feed-forward Dense(gelu) then Dense over a
     * rank-3 sequence, each with a residual add and layer normalization. The plan runs the residual adds and gelu's
     * gradient in the products' calls, gelu in the call that keeps its input, and attention's packed gradient is
     * read through views.
     */
    static Model feedForwardBlock() {
        SymbolicTensor x = Input.of(AttentionTrainingTest.TIME, AttentionTrainingTest.FEATURES);
        SymbolicTensor a = new MultiHeadAttention(2, 6, 6, 0f, true, true, false, null).apply(x, x);
        SymbolicTensor h = Layers.layerNormalization().apply(Layers.add().apply(x, a));
        SymbolicTensor f = Layers.dense(20, Activation.GELU).apply(h);
        f = Layers.dense(AttentionTrainingTest.FEATURES).apply(f);
        h = Layers.layerNormalization().apply(Layers.add().apply(h, f));
        return Model.of(x, Layers.dense(3).apply(Layers.flatten().apply(h)));
    }

    @Test
    void transformerBlockTrainsToTheSameWeightsWithItsProductEpiloguesFused() {
        Model model = assertSameBits(FusedTrainingTest::feedForwardBlock,
                EagerVsCompiledTest.data(90, AttentionTrainingTest.TIME, AttentionTrainingTest.FEATURES));
        List<String> names = model.trainPlan(16).instructionNodes().stream()
                .filter(n -> n.attrs() instanceof FusedAttrs)
                .map(n -> ((FusedAttrs) n.attrs()).nodes().stream().map(p -> p.op().name()).toList().toString())
                .toList();
        assertTrue(names.contains("[MATMUL, BINARY, UNARY]"), "gelu with its kept input: " + names);
        assertTrue(names.stream().anyMatch(s -> s.matches("\\[MATMUL, BINARY, (RESHAPE, )+BINARY]")),
                "a residual add: " + names);
        assertTrue(names.stream().anyMatch(s -> s.matches("\\[MATMUL, (RESHAPE, )+BINARY]")),
                "gelu's gradient: " + names);
    }

    private static List<Tensor> train(Supplier<Model> make, boolean fuse, Tensor[] xy, Model[] keep) {
        String before = System.getProperty(FUSION);
        System.setProperty(FUSION, Boolean.toString(fuse));
        try {
            RandomSeed.set(17);
            Model model = make.get();
            model.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
            model.fit(xy[0], xy[1], Fit.epochs(3).batchSize(16).seed(3).verbose(0));
            keep[0] = model;
            return model.getWeights();
        } finally {
            if (before == null) {
                System.clearProperty(FUSION);
            } else {
                System.setProperty(FUSION, before);
            }
        }
    }

    private static Model assertSameBits(Supplier<Model> make, Tensor[] xy) {
        Model[] fusedModel = new Model[1];
        List<Tensor> plain = train(make, false, xy, new Model[1]);
        List<Tensor> fused = train(make, true, xy, fusedModel);
        assertEquals(plain.size(), fused.size());
        for (int i = 0; i < plain.size(); i++) {
            assertArrayEquals(plain.get(i).toArray(), fused.get(i).toArray(), "weight " + i);
        }
        long fusedCalls = fusedModel[0].trainPlan(16).instructionNodes().stream()
                .filter(n -> n.attrs() instanceof FusedAttrs).count();
        assertTrue(fusedCalls > 0, "the training step has fused calls");
        return fusedModel[0];
    }

    @Test
    void smallW2TrainsToTheSameWeightsWithAndWithoutFusion() {
        assertSameBits(FusedTrainingTest::smallW2, EagerVsCompiledTest.data(90, 10, 10, 1));
    }

    @Test
    void cnnWithBatchNormGeluAndDropoutTrainsToTheSameWeights() {
        assertSameBits(EagerVsCompiledTest::cnn, EagerVsCompiledTest.data(90, 8, 8, 1));
    }

    @Test
    void batchNormWithReluTrainsToTheSameWeightsAndFusesBothWays() {
        Model model = assertSameBits(FusedTrainingTest::batchNormRelu, EagerVsCompiledTest.data(90, 8, 8, 1));
        List<String> names = model.trainPlan(16).instructionNodes().stream()
                .filter(n -> n.attrs() instanceof FusedAttrs)
                .map(n -> ((FusedAttrs) n.attrs()).nodes().stream().map(p -> p.op().name()).toList().toString())
                .toList();
        assertEquals(3, names.stream().filter(s -> s.equals("[BATCH_NORM, UNARY]")).count(), names.toString());
        assertEquals(3, names.stream().filter(s -> s.equals("[BINARY, BATCH_NORM_PARAM_GRAD]")).count(),
                names.toString());
        assertEquals(3, names.stream().filter(s -> s.equals("[BINARY, BATCH_NORM_GRAD]")).count(), names.toString());
    }

    @Test
    void siluTrainsToTheSameWeightsWithItsElementwiseOpsFused() {
        Model model = assertSameBits(FusedTrainingTest::silu, EagerVsCompiledTest.data(90, 8, 8, 1));
        List<List<String>> chains = model.trainPlan(16).instructionNodes().stream()
                .filter(n -> n.attrs() instanceof FusedAttrs)
                .map(n -> ((FusedAttrs) n.attrs()).nodes().stream().map(p -> p.op().name()).toList())
                .filter(parts -> parts.stream().allMatch(p -> p.equals("UNARY") || p.equals("BINARY")))
                .toList();
        // Training keeps sigmoid's output for its gradient, so the forward product runs on its own; hard silu's
        // clipping and the gradients' products and sums by the derivatives are the chains, one at least 3 ops long.
        assertTrue(chains.size() >= 6, chains.toString());
        assertTrue(chains.stream().anyMatch(c -> c.size() >= 3), chains.toString());
        // The chains' inner values get no buffer.
        Model[] plain = new Model[1];
        train(FusedTrainingTest::silu, false, EagerVsCompiledTest.data(90, 8, 8, 1), plain);
        long fusedFloats = model.trainPlan(16).plannedFloats();
        long plainFloats = plain[0].trainPlan(16).plannedFloats();
        System.out.printf("silu model's train step: %d planned floats fused, %d unfused%n", fusedFloats, plainFloats);
        assertTrue(fusedFloats < plainFloats, fusedFloats + " >= " + plainFloats);
    }

    @Test
    void residualBatchNormAddAndReluRunAsOneCallToTheSameWeights() {
        Model model = assertSameBits(FusedTrainingTest::residual, EagerVsCompiledTest.data(90, 6, 6, 16));
        List<String> names = model.trainPlan(16).instructionNodes().stream()
                .filter(n -> n.attrs() instanceof FusedAttrs)
                .map(n -> ((FusedAttrs) n.attrs()).nodes().stream().map(p -> p.op().name()).toList().toString())
                .toList();
        assertEquals(1, names.stream().filter(s -> s.equals("[BATCH_NORM, BINARY, UNARY]")).count(),
                names.toString());
        assertEquals(0, names.stream().filter(s -> s.equals("[BINARY, UNARY]")).count(), names.toString());
        // Prediction (batch normalization with its moving statistics) gives the unfused bits too.
        Tensor[] xy = EagerVsCompiledTest.data(40, 6, 6, 16);
        Model[] plain = new Model[1];
        train(FusedTrainingTest::residual, false, EagerVsCompiledTest.data(90, 6, 6, 16), plain);
        assertArrayEquals(predict(plain[0], false, xy[0]), predict(model, true, xy[0]), "predictions");
    }

    @Test
    void residualBlockOfWinogradConvolutionsTrainsToTheSameWeightsFusedOrNot() {
        assertSameBits(() -> residual(32), EagerVsCompiledTest.data(90, 6, 6, 32));
    }

    private static float[] predict(Model model, boolean fuse, Tensor x) {
        String before = System.getProperty(FUSION);
        System.setProperty(FUSION, Boolean.toString(fuse));
        try {
            return model.predict(x).toArray();
        } finally {
            if (before == null) {
                System.clearProperty(FUSION);
            } else {
                System.setProperty(FUSION, before);
            }
        }
    }
}

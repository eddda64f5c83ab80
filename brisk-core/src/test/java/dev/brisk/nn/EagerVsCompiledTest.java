package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.profile.Span;
import dev.brisk.tensor.Tensor;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same model trained from the same seed, eagerly and compiled, ends with the same weights; and two compiled
 * runs from one seed end bit for bit the same.
 */
class EagerVsCompiledTest {
    /** A small CNN with batch norm and dropout, so that every kind of state is exercised. */
    static Model cnn() {
        return Sequential.of(
                Layers.input(8, 8, 1),
                Layers.conv2d(4, 3, Activation.RELU),
                Layers.batchNormalization(),
                Layers.maxPooling2d(2),
                Layers.flatten(),
                Layers.dense(16, Activation.GELU),
                Layers.dropout(0.25f),
                Layers.dense(3));
    }

    /** A convolution whose relu output two layers read: a pooling and a global average. */
    private static Model sharedActivation() {
        SymbolicTensor in = Input.of(8, 8, 1);
        SymbolicTensor conv = Layers.conv2d(16, 3, Activation.RELU).apply(in);
        SymbolicTensor pooled = Layers.flatten().apply(Layers.maxPooling2d(2).apply(conv));
        SymbolicTensor averaged = Layers.globalAveragePooling2d().apply(conv);
        return Model.of(in, Layers.dense(3).apply(Layers.concatenate().apply(pooled, averaged)));
    }

    private static Model mlp() {
        return Sequential.of(
                Layers.input(12),
                Layers.dense(10, Activation.TANH),
                Layers.dense(10, Activation.SIGMOID),
                Layers.dense(3));
    }

    static Tensor[] data(int n, int... sampleDims) {
        SplittableRandom r = new SplittableRandom(7);
        int per = 1;
        for (int d : sampleDims) {
            per *= d;
        }
        float[] x = new float[n * per];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            y[i] = r.nextInt(3);
            for (int j = 0; j < per; j++) {
                x[i * per + j] = (float) r.nextGaussian() + (j % 3 == y[i] ? 0.5f : 0f);
            }
        }
        int[] dims = new int[sampleDims.length + 1];
        dims[0] = n;
        System.arraycopy(sampleDims, 0, dims, 1, sampleDims.length);
        return new Tensor[] {Tensor.of(x, dims), Tensor.of(y, n)};
    }

    private static List<Tensor> train(Model model, boolean eager, Tensor[] xy) {
        model.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        model.runEagerly(eager);
        // 90 samples in batches of 16: 5 full steps and a partial one per epoch, 4 epochs (24 steps).
        model.fit(xy[0], xy[1], Fit.epochs(4).batchSize(16).seed(3).verbose(0));
        return model.getWeights();
    }

    private static void assertSameWeights(List<Tensor> a, List<Tensor> b) {
        assertEquals(a.size(), b.size());
        for (int i = 0; i < a.size(); i++) {
            Tensor x = a.get(i);
            Tensor y = b.get(i);
            assertEquals(x.shape(), y.shape());
            for (int k = 0; k < x.size(); k++) {
                float tol = 1e-4f * Math.max(1f, Math.abs(x.get(k)));
                assertEquals(x.get(k), y.get(k), tol, "weight " + i + " element " + k);
            }
        }
    }

    @Test
    void cnnWithBatchNormAndDropoutMatches() {
        Tensor[] xy = data(90, 8, 8, 1);
        RandomSeed.set(11);
        List<Tensor> eager = train(cnn(), true, xy);
        RandomSeed.set(11);
        Model compiled = cnn();
        List<Tensor> planned = train(compiled, false, xy);
        assertSameWeights(eager, planned);
        assertNotNull(compiled.trainPlan(16), "compiled mode made a plan for full batches");
        assertNotNull(compiled.trainPlan(10), "and one for the partial last batch");
    }

    /** Trains one model of {@code build} eagerly and one compiled, both from weights seed {@code seed}. */
    private static void assertEagerMatchesCompiled(Supplier<Model> build, Tensor[] xy, long seed) {
        RandomSeed.set(seed);
        List<Tensor> eager = train(build.get(), true, xy);
        RandomSeed.set(seed);
        assertSameWeights(eager, train(build.get(), false, xy));
    }

    @Test
    void smallW2AndASharedActivationMatch() {
        assertEagerMatchesCompiled(FusedTrainingTest::smallW2, data(90, 10, 10, 1), 17);
        assertEagerMatchesCompiled(EagerVsCompiledTest::sharedActivation, data(90, 8, 8, 1), 19);
    }

    /** Convolutions of 32 channels (Winograd's kernels) in a residual block give the same bits eager and compiled. */
    @Test
    void residualBlockOfWinogradConvolutionsMatches() {
        assertEagerMatchesCompiled(() -> FusedTrainingTest.residual(32), data(90, 6, 6, 32), 29);
    }

    /** The kernel calls of one profiled training step (the third) of {@code model}, by name, sorted. */
    private static List<String> kernelCallsOfAStep(Model model, boolean eager, Path trace) {
        model.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true));
        model.runEagerly(eager);
        Tensor[] xy = data(90, 10, 10, 1);
        model.fit(xy[0], xy[1], Fit.epochs(1).batchSize(16).seed(3).verbose(0).profile(trace, 3, 3));
        return model.lastProfile().spans().stream().filter(s -> s.category() == Span.Category.KERNEL)
                .map(Span::name).sorted().toList();
    }

    /** Keras' other way to write a convolution block: no activation in the layer, then an activation layer. */
    private static Model activationLayers() {
        return Sequential.of(
                Layers.input(10, 10, 1),
                Layers.conv2d(16, 3, Activation.LINEAR),
                Layers.activation(Activation.RELU),
                Layers.maxPooling2d(2),
                Layers.flatten(),
                Layers.dense(3));
    }

    @Test
    void anEagerStepMakesThePlansKernelCalls(@TempDir Path tmp) {
        for (Supplier<Model> build : List.<Supplier<Model>>of(FusedTrainingTest::smallW2,
                EagerVsCompiledTest::activationLayers)) {
            RandomSeed.set(23);
            List<String> compiled = kernelCallsOfAStep(build.get(), false, tmp.resolve("compiled.json"));
            RandomSeed.set(23);
            List<String> eager = kernelCallsOfAStep(build.get(), true, tmp.resolve("eager.json"));
            assertEquals(compiled, eager);
        }
    }

    @Test
    void mlpMatchesAndEagerMakesNoPlan() {
        Tensor[] xy = data(90, 12);
        RandomSeed.set(5);
        Model eagerModel = mlp();
        List<Tensor> eager = train(eagerModel, true, xy);
        RandomSeed.set(5);
        List<Tensor> planned = train(mlp(), false, xy);
        assertSameWeights(eager, planned);
        assertNull(eagerModel.trainPlan(16));
    }

    @Test
    void theSameSeedGivesBitIdenticalWeights() {
        // The second run finds the kernels compiled by the JIT: results must not depend on that.
        Tensor[] xy = data(90, 8, 8, 1);
        RandomSeed.set(13);
        List<Tensor> first = train(cnn(), false, xy);
        RandomSeed.set(13);
        List<Tensor> second = train(cnn(), false, xy);
        for (int i = 0; i < first.size(); i++) {
            assertArrayEquals(first.get(i).toArray(), second.get(i).toArray(), "weight " + i);
        }
    }

    @Test
    void trainingChangesTheWeights() {
        Tensor[] xy = data(90, 12);
        RandomSeed.set(5);
        Model m = mlp();
        List<Tensor> before = m.getWeights();
        List<Tensor> after = train(m, false, xy);
        boolean changed = false;
        for (int i = 0; i < before.size(); i++) {
            for (int k = 0; k < before.get(i).size(); k++) {
                changed |= before.get(i).get(k) != after.get(i).get(k);
            }
        }
        assertTrue(changed);
    }
}

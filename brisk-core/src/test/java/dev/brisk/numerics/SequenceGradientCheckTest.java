package dev.brisk.numerics;

import static dev.brisk.numerics.GradCheck.distinct;
import static dev.brisk.numerics.GradCheck.gaussian;
import static dev.brisk.numerics.LayerGradientCheckTest.checkLayer;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.brisk.backend.Kernels;
import dev.brisk.graph.Graph;
import dev.brisk.nn.Activation;
import dev.brisk.nn.CallContext;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.layers.Embedding;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.Padding;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Finite-difference checks of the embedding lookup (its scatter-add gradient, with repeated ids) and of the sequence
 * layers: Dense over rank 3, Conv1D with every padding, the 1-D poolings, and the masked global average; each also
 * compiled and compared with eager by {@link GradCheck}.
 */
class SequenceGradientCheckTest {
    @BeforeEach
    void seed() {
        RandomSeed.set(42);
    }

    /** Ids {@code [2, 5]} in a vocabulary of 7, with repeats (scatter-add) and an unused row (zero gradient). */
    private static Tensor ids() {
        return Tensor.ofInts(new int[] {3, 1, 3, 0, 6, 2, 3, 1, 5, 0}, 2, 5);
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void embeddingLookup(String backend) {
        Kernels k = GradCheck.kernels(backend);
        for (int dim : new int[] {5, 19}) { // 19: whole vectors and a tail on any vector size
            Tensor table = gaussian(dim, 1, 7, dim);
            Tensor ids = ids();
            List<Tensor> params = List.of(table);
            GradCheck.Problem p = (g, nodes) -> {
                Node t = g.input("table", table);
                nodes.add(t);
                return g.embeddingLookup(t, g.input("ids", ids));
            };
            GradCheck.check(k, "embedding dim " + dim, params, p, GradCheck.EPS, GradCheck.ATOL);
        }
    }

    /** Embedding(maskZero) then GlobalAveragePooling1D: the average is over the unmasked steps only. */
    /**
     * A token embedding plus a learned positional embedding (an Embedding over {@code Layers.positions()}, an INT32
     * constant): both tables' gradients, the positions' summed over the batch.
     */
    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void tokenAndPositionalEmbedding(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Embedding tokens = Layers.embedding(7, 4);
        Embedding positions = Layers.embedding(5, 4);
        var where = Layers.positions();
        Tensor ids = ids();
        Graph warm = Graph.eager(k);
        CallContext ctx = new CallContext(true, warm.input("seed", Tensor.scalar(1f)));
        Node warmIds = warm.input("ids", ids);
        tokens.invoke(warm, List.of(warmIds), ctx);
        Node warmPositions = where.invoke(warm, List.of(warmIds), ctx);
        assertArrayEquals(new int[] {0, 1, 2, 3, 4, 0, 1, 2, 3, 4}, warmPositions.value().toIntArray());
        positions.invoke(warm, List.of(warmPositions), ctx);
        Tensor tokenTable = tokens.embeddings().value();
        Tensor positionTable = positions.embeddings().value();
        GradCheck.Problem p = (g, nodes) -> {
            CallContext c = new CallContext(true, g.input("seed", Tensor.scalar(1f)));
            Node in = g.input("ids", ids);
            Node t = tokens.invoke(g, List.of(in), c);
            Node q = positions.invoke(g, List.of(where.invoke(g, List.of(in), c)), c);
            nodes.add(g.variable(tokens.embeddings()));
            nodes.add(g.variable(positions.embeddings()));
            return g.add(t, q);
        };
        tokenTable.copyFrom(gaussian(3, 1, 7, 4));
        positionTable.copyFrom(gaussian(4, 1, 5, 4));
        GradCheck.check(k, "token and positional embedding", new ArrayList<>(List.of(tokenTable, positionTable)), p,
                GradCheck.EPS, GradCheck.ATOL);
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void maskedGlobalAverage(String backend) {
        Kernels k = GradCheck.kernels(backend);
        Embedding embedding = Layers.embedding(7, 4, true);
        var pool = Layers.globalAveragePooling1d();
        Tensor ids = ids();
        Graph warm = Graph.eager(k);
        CallContext ctx = new CallContext(true, warm.input("seed", Tensor.scalar(1f)));
        embedding.invoke(warm, List.of(warm.input("ids", ids)), ctx);
        Tensor table = embedding.embeddings().value();
        GradCheck.Problem p = (g, nodes) -> {
            CallContext c = new CallContext(true, g.input("seed", Tensor.scalar(1f)));
            Node e = embedding.invoke(g, List.of(g.input("ids", ids)), c);
            nodes.add(g.variable(embedding.embeddings()));
            return pool.invoke(g, List.of(e), c);
        };
        table.copyFrom(gaussian(3, 1, 7, 4));
        GradCheck.check(k, "masked global average", new ArrayList<>(List.of(table)), p, GradCheck.EPS,
                GradCheck.ATOL);
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void sequenceLayers(String backend) {
        Kernels k = GradCheck.kernels(backend);
        checkLayer(k, "dense rank 3", Layers.dense(3, Activation.TANH), true,
                List.of(gaussian(1, 0.6, 4, 3), gaussian(2, 0.3, 3)), gaussian(3, 1, 2, 5, 4));
        checkLayer(k, "conv1d valid", Layers.conv1d(3, 3, Activation.LINEAR), true,
                List.of(gaussian(4, 0.5, 3, 2, 3), gaussian(5, 0.5, 3)), gaussian(6, 1, 2, 7, 2));
        checkLayer(k, "conv1d same stride 2", Layers.conv1d(2, 3, 2, Padding.SAME, Activation.TANH), true,
                List.of(gaussian(7, 0.5, 3, 2, 2), gaussian(8, 0.5, 2)), gaussian(9, 1, 2, 7, 2));
        checkLayer(k, "conv1d causal", Layers.conv1d(3, 3, 1, Padding.CAUSAL, Activation.LINEAR), true,
                List.of(gaussian(10, 0.5, 3, 2, 3), gaussian(11, 0.5, 3)), gaussian(12, 1, 2, 6, 2));
        checkLayer(k, "conv1d causal stride 2", Layers.conv1d(2, 4, 2, Padding.CAUSAL, Activation.SIGMOID), true,
                List.of(gaussian(13, 0.5, 4, 3, 2), gaussian(14, 0.5, 2)), gaussian(15, 1, 1, 7, 3));
        checkLayer(k, "maxpool1d 2", Layers.maxPooling1d(2), true, null, distinct(16, 0.05, 0.01, 2, 6, 3));
        checkLayer(k, "avgpool1d 3/2 same", new dev.brisk.nn.layers.AveragePooling1D(3, 2, Padding.SAME, null),
                true, null, gaussian(17, 1, 2, 7, 2));
        checkLayer(k, "global avg 1d", Layers.globalAveragePooling1d(), true, null, gaussian(18, 1, 2, 5, 3));
        checkLayer(k, "global max 1d", Layers.globalMaxPooling1d(), true, null, distinct(19, 0.05, 0.01, 2, 5, 3));
    }
}

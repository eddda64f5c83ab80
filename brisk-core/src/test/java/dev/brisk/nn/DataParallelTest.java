package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.Callback;
import dev.brisk.callbacks.History;
import dev.brisk.distribute.MemoryRing;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Synchronous data parallelism is the computation of one process with the global batch: replicas in this JVM and
 * workers on a ring (threads here; separate JVMs in brisk-spark's tests) against plain {@code fit}.
 */
class DataParallelTest {
    private static final int FEATURES = 20;
    private static final int CLASSES = 5;

    static Model mlp(long seed) {
        Model m = Sequential.of(
                Layers.input(FEATURES),
                Layers.dense(32, Activation.RELU),
                Layers.dense(16, Activation.TANH),
                Layers.dense(CLASSES));
        m.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        return randomized(m, seed, false);
    }

    /** {@code m} built, with seeded random weights: all of them, or only the kernels (rank 2). */
    static Model randomized(Model m, long seed, boolean kernelsOnly) {
        m.build(new dev.brisk.tensor.Shape[] {dev.brisk.tensor.Shape.of(FEATURES)});
        Random r = new Random(seed);
        List<Tensor> w = new ArrayList<>();
        for (Tensor t : m.getWeights()) {
            float[] v = new float[t.size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = !kernelsOnly || t.shape().rank() == 2 ? (float) (r.nextGaussian() * 0.3) : t.get(i);
            }
            w.add(Tensor.of(v, t.shape().dims()));
        }
        m.setWeights(w);
        return m;
    }

    static Tensor[] data(int n, long seed) {
        Random r = new Random(seed);
        float[] x = new float[n * FEATURES];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < FEATURES; j++) {
                float v = (float) r.nextGaussian();
                x[i * FEATURES + j] = v;
                s += v * (j % 3 - 1);
            }
            y[i] = (float) Math.floorMod((int) Math.floor(s), CLASSES);
        }
        return new Tensor[] {Tensor.of(x, n, FEATURES), Tensor.of(y, n)};
    }

    /** Largest ||a - b|| / ||a|| over the weight tensors. */
    static double relativeDifference(List<Tensor> a, List<Tensor> b) {
        double worst = 0;
        for (int t = 0; t < a.size(); t++) {
            double diff = 0;
            double norm = 0;
            for (int i = 0; i < a.get(t).size(); i++) {
                double d = a.get(t).get(i) - b.get(t).get(i);
                diff += d * d;
                norm += (double) a.get(t).get(i) * a.get(t).get(i);
            }
            worst = Math.max(worst, Math.sqrt(diff / Math.max(norm, 1e-30)));
        }
        return worst;
    }

    static boolean bitwiseEqual(List<Tensor> a, List<Tensor> b) {
        for (int t = 0; t < a.size(); t++) {
            for (int i = 0; i < a.get(t).size(); i++) {
                if (Float.floatToRawIntBits(a.get(t).get(i)) != Float.floatToRawIntBits(b.get(t).get(i))) {
                    return false;
                }
            }
        }
        return true;
    }

    @Test
    void twoReplicasOfSixtyFourAreOneProcessOfOneHundredTwentyEight() {
        // 500 samples: three full batches and a last one of 116 (two shards of 58).
        Tensor[] xy = data(500, 1);
        Model single = mlp(7);
        History h1 = single.fit(xy[0], xy[1], Fit.epochs(3).batchSize(128).seed(3).verbose(0));
        for (int replicas : new int[] {2, 3}) {
            Model parallel = mlp(7);
            History h2 = parallel.fit(xy[0], xy[1], Fit.epochs(3).batchSize(128).seed(3).verbose(0)
                    .distribution(Distribution.replicas(replicas)));
            double rel = relativeDifference(single.getWeights(), parallel.getWeights());
            assertTrue(rel < 1e-5, replicas + " replicas: weights differ from one process by " + rel);
            assertTrue(rel > 0 || replicas == 1, "suspiciously bit-identical: were the replicas used?");
            assertEquals(parallel.optimizer().iterations(), single.optimizer().iterations());
            for (String key : List.of("loss", "accuracy")) {
                List<Double> a = h1.get(key);
                List<Double> b = h2.get(key);
                for (int e = 0; e < a.size(); e++) {
                    assertEquals(a.get(e), b.get(e), 1e-5 * Math.max(1, Math.abs(a.get(e))), key + " epoch " + e);
                }
            }
        }
    }

    @Test
    void replicasRepeatBitForBit() {
        Tensor[] xy = data(300, 2);
        List<List<Tensor>> runs = new ArrayList<>();
        for (int run = 0; run < 2; run++) {
            Model m = mlp(9);
            m.fit(xy[0], xy[1], Fit.epochs(2).batchSize(64).seed(5).verbose(0)
                    .distribution(Distribution.replicas(3)));
            runs.add(m.getWeights());
        }
        assertTrue(bitwiseEqual(runs.get(0), runs.get(1)), "two runs of 3 replicas gave other bits");
    }

    @Test
    void callbacksRunOnceAndSeeTheGlobalBatches() {
        Tensor[] xy = data(256, 4);
        int[] batches = {0};
        Callback counter = new Callback() {
            @Override
            public void onTrainBatchEnd(int batch, Map<String, Double> logs) {
                batches[0]++;
            }
        };
        mlp(1).fit(xy[0], xy[1], Fit.epochs(2).batchSize(64).verbose(0).callbacks(counter)
                .distribution(Distribution.replicas(2)));
        assertEquals(8, batches[0], "one call per global batch, not per replica");
    }

    /**
     * Two workers on a ring of threads, each with its own model and its own share of the data (worker k holds shard
     * k of every global batch), give the bits of two in-process replicas, which add in the same order.
     */
    @Test
    void workersOnARingGiveTheBitsOfInProcessReplicas() throws Exception {
        int n = 2;
        int global = 64;
        Tensor[] xy = data(320, 6);
        Model replicas = mlp(11);
        History hr = replicas.fit(xy[0], xy[1], Fit.epochs(2).batchSize(global).shuffle(false).verbose(0)
                .distribution(Distribution.replicas(n)));
        for (Trained t : trainWorkers(n, global, xy, () -> mlp(11), d -> d)) {
            assertTrue(bitwiseEqual(replicas.getWeights(), t.model().getWeights()),
                    "a worker's weights differ from the replicas'");
            assertEquals(hr.get("loss").get(1), t.history().get("loss").get(1), 1e-6);
            assertEquals(hr.get("accuracy").get(1), t.history().get("accuracy").get(1), 1e-6);
        }
    }

    /** A worker's model after its fit, and the fit's History. */
    record Trained(Model model, History history) {
    }

    /**
     * {@code n} workers on a ring of threads, each with its own model from {@code build} and its share of
     * {@code xy}, trained for two epochs of global batch {@code global} with {@code how} applied to its distribution.
     */
    static List<Trained> trainWorkers(int n, int global, Tensor[] xy, Supplier<Model> build,
                                      UnaryOperator<Distribution> how) throws Exception {
        List<MemoryRing> ring = MemoryRing.create(n, Duration.ofSeconds(30));
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<Trained>> futures = new ArrayList<>();
            for (int k = 0; k < n; k++) {
                int rank = k;
                futures.add(pool.submit(() -> {
                    Tensor[] share = share(xy, rank, n, global);
                    Model m = build.get();
                    History h = m.fit(share[0], share[1], Fit.epochs(2).batchSize(global).shuffle(false).verbose(0)
                            .distribution(how.apply(Distribution.worker(ring.get(rank)))));
                    return new Trained(m, h);
                }));
            }
            List<Trained> out = new ArrayList<>();
            for (Future<Trained> f : futures) {
                out.add(f.get());
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Worker {@code k}'s rows: shard k of every global batch, in order. */
    static Tensor[] share(Tensor[] xy, int k, int n, int global) {
        int rows = xy[0].shape().dim(0);
        List<Integer> mine = new ArrayList<>();
        for (int start = 0; start < rows; start += global) {
            int size = Math.min(global, rows - start);
            for (int i = DataParallelStep.shardStart(size, n, k); i < DataParallelStep.shardStart(size, n, k + 1); i++) {
                mine.add(start + i);
            }
        }
        float[] x = new float[mine.size() * FEATURES];
        float[] y = new float[mine.size()];
        for (int i = 0; i < mine.size(); i++) {
            System.arraycopy(xy[0].toArray(), mine.get(i) * FEATURES, x, i * FEATURES, FEATURES);
            y[i] = xy[1].get(mine.get(i));
        }
        return new Tensor[] {Tensor.of(x, mine.size(), FEATURES), Tensor.of(y, mine.size())};
    }

    /** Dense, BatchNormalization, dense: a model whose training step writes state (the moving statistics). */
    static Model batchNormModel(long seed) {
        Model m = Sequential.of(Layers.input(FEATURES), Layers.dense(8), Layers.batchNormalization(),
                Layers.dense(CLASSES));
        m.compile(Optimizers.sgd(0.1f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        // Random kernels; biases, gamma, beta and the statistics keep their initial values.
        return randomized(m, seed, true);
    }

    /**
     * As Keras' MirroredStrategy: each replica updates the moving statistics from its own shard's batch
     * statistics, and the replicas' results are averaged, so one step gives
     * {@code moving = 0.99 moving + 0.01 mean_k(batch statistic of shard k)}, worked out here by hand.
     */
    @Test
    void replicasAverageTheirBatchNormStatisticsAsMirroredStrategyDoes() {
        Model m = batchNormModel(3);
        List<Tensor> before = m.getWeights();
        Tensor[] xy = data(64, 8);
        m.fit(xy[0], xy[1], Fit.epochs(1).batchSize(64).shuffle(false).verbose(0)
                .distribution(Distribution.replicas(2)));
        // before: dense kernel [20, 8], dense bias [8], gamma, beta, moving mean, moving variance, ...
        Tensor kernel = before.get(0);
        Tensor bias = before.get(1);
        Tensor mean0 = before.get(4);
        Tensor var0 = before.get(5);
        double[] mean = new double[8];
        double[] variance = new double[8];
        for (int shard = 0; shard < 2; shard++) {
            double[][] h = new double[32][8];
            for (int i = 0; i < 32; i++) {
                for (int c = 0; c < 8; c++) {
                    double v = bias.get(c);
                    for (int j = 0; j < FEATURES; j++) {
                        v += xy[0].get((shard * 32 + i) * FEATURES + j) * kernel.get(j * 8 + c);
                    }
                    h[i][c] = v;
                }
            }
            for (int c = 0; c < 8; c++) {
                double mu = 0;
                for (double[] row : h) {
                    mu += row[c] / 32;
                }
                double var = 0;
                for (double[] row : h) {
                    var += (row[c] - mu) * (row[c] - mu) / 32;
                }
                mean[c] += mu / 2;
                variance[c] += var / 2;
            }
        }
        List<Tensor> after = m.getWeights();
        for (int c = 0; c < 8; c++) {
            assertEquals(0.99 * mean0.get(c) + 0.01 * mean[c], after.get(4).get(c), 1e-5, "moving mean " + c);
            assertEquals(0.99 * var0.get(c) + 0.01 * variance[c], after.get(5).get(c), 1e-5, "moving variance " + c);
        }
    }

    /**
     * Two workers on a ring, each with its own copy of the model, end every step with the same moving statistics
     * (and weights), bit for bit, and those of two in-process replicas, which share one copy.
     */
    @Test
    void replicasWithBatchNormEndWithIdenticalStatisticsOnEveryReplica() throws Exception {
        int n = 2;
        int global = 32;
        Tensor[] xy = data(200, 9);
        Model replicas = batchNormModel(4);
        replicas.fit(xy[0], xy[1], Fit.epochs(2).batchSize(global).shuffle(false).verbose(0)
                .distribution(Distribution.replicas(n)));
        List<Trained> workers = trainWorkers(n, global, xy, () -> batchNormModel(4), d -> d);
        List<Tensor> first = workers.get(0).model().getWeights();
        assertTrue(bitwiseEqual(first, workers.get(1).model().getWeights()),
                "the workers' statistics or weights differ");
        assertTrue(bitwiseEqual(replicas.getWeights(), first), "workers and in-process replicas differ");
        Model untrained = batchNormModel(4);
        assertTrue(relativeDifference(untrained.getWeights().subList(4, 6), first.subList(4, 6)) > 1e-3,
                "the moving statistics did not move");
    }

    /**
     * The exchange overlapped with the backward pass, in buckets of 16 floats (many per step, started as the
     * backward pass finishes them), gives the bits of the exchange after the step: in-process replicas with and
     * without batch-norm state, and three workers on a ring (from three ranks on, the order of the additions shows
     * in the bits), whose last step leaves two of them without data (their rows add zeros).
     */
    @Test
    void theOverlappedExchangeGivesTheBitsOfTheExchangeAfterTheStep() throws Exception {
        int n = 3;
        int global = 48;
        Tensor[] xy = data(289, 12);
        for (boolean bn : new boolean[] {false, true}) {
            Model after = bn ? batchNormModel(5) : mlp(5);
            Model during = bn ? batchNormModel(5) : mlp(5);
            after.fit(xy[0], xy[1], Fit.epochs(2).batchSize(global).shuffle(false).verbose(0)
                    .distribution(Distribution.replicas(n)));
            History h = during.fit(xy[0], xy[1], Fit.epochs(2).batchSize(global).shuffle(false).verbose(0)
                    .distribution(Distribution.replicas(n).overlap(64)));
            assertTrue(bitwiseEqual(after.getWeights(), during.getWeights()),
                    "overlapped in-process replicas differ" + (bn ? " (batch norm)" : ""));
            assertEquals(2, h.get("loss").size());
        }
        Model replicas = mlp(5);
        replicas.fit(xy[0], xy[1], Fit.epochs(2).batchSize(global).shuffle(false).verbose(0)
                .distribution(Distribution.replicas(n)));
        for (Trained t : trainWorkers(n, global, xy, () -> mlp(5), d -> d.overlap(64))) {
            assertTrue(bitwiseEqual(replicas.getWeights(), t.model().getWeights()), "an overlapped worker differs");
        }
        assertThrows(IllegalArgumentException.class, () -> Distribution.singleProcess().overlap(true));
    }

    /**
     * A compiled GRADIENTS step tells each gradient as soon as its kernel has run, in the order the backward pass
     * finishes them: the last layer's first (were they told at the end of the step, they would come in order).
     */
    @Test
    void aCompiledStepTellsTheGradientsAsTheBackwardPassFinishesThem() {
        Model m = mlp(3);
        Tensor[] xy = data(32, 2);
        StepRunner runner = m.acquireRunner();
        try {
            List<Integer> order = new ArrayList<>();
            StepRunner.Result r = runner.shardGradients(new StepBatch(new Tensor[] {xy[0]}, new Tensor[] {xy[1]}, 32),
                    0f, (i, g) -> order.add(i));
            assertEquals(6, order.size(), "each gradient told once: " + order);
            assertEquals(List.of(0, 1, 2, 3, 4, 5), order.stream().sorted().toList());
            assertTrue(order.get(0) >= 4, "the last dense layer's gradients should come first: " + order);
            assertEquals(6, r.gradients().length);
        } finally {
            m.releaseRunner(runner);
        }
    }

    @Test
    void resumingMidEpochGivesTheUninterruptedWeights() {
        Tensor[] xy = data(256, 8);
        Model whole = mlp(3);
        whole.fit(xy[0], xy[1], Fit.epochs(2).batchSize(32).seed(4).verbose(0));
        // Stop after 11 steps (epoch 1, step 3), keep the weights and optimizer state, resume in a new model.
        Model first = mlp(3);
        Callback stop = new Callback() {
            int seen;

            @Override
            public void onTrainBatchEnd(int batch, Map<String, Double> logs) {
                if (++seen == 11) {
                    first.stopTraining();
                }
            }
        };
        first.fit(xy[0], xy[1], Fit.epochs(2).batchSize(32).seed(4).verbose(0).callbacks(stop));
        Model resumed = mlp(3);
        resumed.setWeights(first.getWeights());
        resumed.optimizer().build(resumed.trainableVariables());
        List<dev.brisk.ops.Variable> from = first.optimizer().slotVariables();
        List<dev.brisk.ops.Variable> to = resumed.optimizer().slotVariables();
        assertEquals(from.size(), to.size());
        for (int i = 0; i < from.size(); i++) {
            to.get(i).assign(from.get(i).value());
        }
        resumed.optimizer().setIterations(first.optimizer().iterations());
        resumed.fit(xy[0], xy[1], Fit.epochs(2).batchSize(32).seed(4).verbose(0).resumeAt(1, 3));
        assertTrue(bitwiseEqual(whole.getWeights(), resumed.getWeights()), "resumed run differs");
    }
}

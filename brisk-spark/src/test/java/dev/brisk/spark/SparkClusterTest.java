package dev.brisk.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.Callback;
import dev.brisk.callbacks.CsvLogger;
import dev.brisk.callbacks.History;
import dev.brisk.callbacks.LearningRateScheduler;
import dev.brisk.keras.KerasModels;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Distribution;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Model;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.ops.Variable;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * SparkFit on a real cluster of separate JVMs: {@code local-cluster[2,1,1024]} starts a master, two workers and one
 * executor {@code java} process per worker, all on 127.0.0.1.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class SparkClusterTest {
    private static final int FEATURES = 20;
    private static final int CLASSES = 5;
    private static SparkSession spark;

    /** The model of both tests: an Adam-trained MLP, built identically everywhere. */
    static Model mlp() {
        Model m = Sequential.of(
                Layers.input(FEATURES),
                Layers.dense(32, Activation.RELU),
                Layers.dense(16, Activation.TANH),
                Layers.dense(CLASSES));
        m.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        return m;
    }

    static void seedWeights(Model m, long seed) {
        Random r = new Random(seed);
        List<Tensor> w = new ArrayList<>();
        for (Tensor t : m.getWeights()) {
            float[] v = new float[t.size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = (float) (r.nextGaussian() * 0.3);
            }
            w.add(Tensor.of(v, t.shape().dims()));
        }
        m.setWeights(w);
    }

    @BeforeAll
    static void startCluster() throws Exception {
        String home = System.getenv("SPARK_HOME");
        assertTrue(home != null && "2.13".equals(System.getenv("SPARK_SCALA_VERSION")),
                "run through Maven: brisk-spark's pom sets SPARK_HOME and SPARK_SCALA_VERSION for local-cluster");
        // An empty jars/ folder: the executors' class path is spark.executor.extraClassPath alone.
        Files.createDirectories(Path.of(home, "jars"));
        SparkConf conf = new SparkConf()
                .setMaster("local-cluster[2,1,1024]")
                .setAppName("brisk-spark-test")
                .set("spark.driver.host", "127.0.0.1")
                .set("spark.driver.bindAddress", "127.0.0.1")
                .set("spark.ui.enabled", "false")
                .set("spark.executor.extraClassPath", System.getProperty("java.class.path"))
                .set("spark.executor.extraJavaOptions", "-XX:+UseParallelGC -XX:TieredStopAtLevel=4")
                .set("spark.scheduler.barrier.maxConcurrentTasksCheck.interval", "1s")
                .set("spark.scheduler.barrier.maxConcurrentTasksCheck.maxFailures", "120");
        spark = SparkSession.builder().config(conf).getOrCreate();
        waitForExecutors(2);
    }

    /** The barrier stage needs both task slots at once: wait until the executors have registered. */
    static void waitForExecutors(int n) throws InterruptedException {
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (sc.sc().statusTracker().getExecutorInfos().length < n + 1) {
            assertTrue(System.nanoTime() < deadline, "the executors did not register within 120 s");
            Thread.sleep(100);
        }
    }

    @AfterAll
    static void stopCluster() {
        if (spark != null) {
            spark.stop();
        }
    }

    static float[][] data(int n, long seed) {
        Random r = new Random(seed);
        float[][] rows = new float[n][FEATURES + 1];
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < FEATURES; j++) {
                float v = (float) r.nextGaussian();
                rows[i][j] = v;
                s += v * (j % 3 - 1);
            }
            rows[i][FEATURES] = (float) Math.floorMod((int) Math.floor(s), CLASSES);
        }
        return rows;
    }

    static Dataset<Row> frame(float[][] rows) {
        StructType schema = new StructType()
                .add("features", DataTypes.createArrayType(DataTypes.FloatType, false), false)
                .add("label", DataTypes.FloatType, false);
        List<Row> list = new ArrayList<>();
        for (float[] r : rows) {
            Float[] f = new Float[FEATURES];
            for (int j = 0; j < FEATURES; j++) {
                f[j] = r[j];
            }
            list.add(RowFactory.create(f, r[FEATURES]));
        }
        return spark.createDataFrame(list, schema);
    }

    /**
     * The order in which one process sees the same global batches: batch s is worker 0's part of it (rows
     * 0, 2, 4, ... of the frame in order) then worker 1's (rows 1, 3, 5, ...).
     */
    static Tensor[] globalOrder(float[][] rows, int workers, int global) {
        List<List<float[]>> shares = new ArrayList<>();
        for (int k = 0; k < workers; k++) {
            shares.add(new ArrayList<>());
        }
        for (int i = 0; i < rows.length; i++) {
            shares.get(i % workers).add(rows[i]);
        }
        int local = global / workers;
        List<float[]> ordered = new ArrayList<>();
        for (int start = 0; start < shares.get(0).size(); start += local) {
            for (List<float[]> share : shares) {
                for (int i = start; i < Math.min(start + local, share.size()); i++) {
                    ordered.add(share.get(i));
                }
            }
        }
        float[] x = new float[ordered.size() * FEATURES];
        float[] y = new float[ordered.size()];
        for (int i = 0; i < ordered.size(); i++) {
            System.arraycopy(ordered.get(i), 0, x, i * FEATURES, FEATURES);
            y[i] = ordered.get(i)[FEATURES];
        }
        return new Tensor[] {Tensor.of(x, ordered.size(), FEATURES), Tensor.of(y, ordered.size())};
    }

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

    @Test
    void twoExecutorsOfSixtyFourAreOneProcessOfOneHundredTwentyEight() throws Exception {
        waitForExecutors(2);
        float[][] rows = data(512, 1);
        Model driver = mlp();
        seedWeights(driver, 5);
        // No factory: the driver's model travels to the executors as .keras bytes.
        History h = SparkFit.create().workers(2).epochs(2).batchSize(128).shuffle(false)
                .fit(driver, frame(rows), "label", "features");

        Tensor[] xy = globalOrder(rows, 2, 128);
        Model single = mlp();
        seedWeights(single, 5);
        History hs = single.fit(xy[0], xy[1], Fit.epochs(2).batchSize(128).shuffle(false).verbose(0));
        double rel = relativeDifference(single.getWeights(), driver.getWeights());
        assertTrue(rel < 1e-5, "Spark workers' weights differ from one process by " + rel);
        assertEquals(hs.get("loss").get(1), h.get("loss").get(1), 1e-5);
        assertEquals(hs.get("accuracy").get(1), h.get("accuracy").get(1), 1e-6);
        assertTrue(h.get("allreduce_ms").get(1) > 0, "no all-reduce time reported");
        // The optimizer's state came back too: the driver's model saves as one trained in this process would.
        assertEquals(single.optimizer().iterations(), driver.optimizer().iterations());
        assertTrue(relativeDifference(single.optimizer().slotVariables().stream().map(Variable::value).toList(),
                driver.optimizer().slotVariables().stream().map(Variable::value).toList()) < 1e-5);
        Path saved = Files.createTempFile("brisk-spark-trained", ".keras");
        try {
            KerasModels.save(driver, saved);
            Model back = KerasModels.load(saved);
            assertEquals(0.0, relativeDifference(driver.getWeights(), back.getWeights()));
            assertEquals(driver.optimizer().iterations(), back.optimizer().iterations());
        } finally {
            Files.deleteIfExists(saved);
        }

        // In-process replicas add in the ring's order: the same bits as the executors.
        Model replicas = mlp();
        seedWeights(replicas, 5);
        replicas.fit(xy[0], xy[1], Fit.epochs(2).batchSize(128).shuffle(false).verbose(0)
                .distribution(Distribution.replicas(2)));
        assertEquals(0.0, relativeDifference(replicas.getWeights(), driver.getWeights()),
                "executors and in-process replicas should give the same bits");
    }

    /** Counts the steps it sees, keeps the weights at each epoch's end, and stops training after {@code stopAfter}. */
    static final class Recorder extends Callback {
        private final int stopAfter;
        private final List<List<Tensor>> epochWeights = new ArrayList<>();
        private int batchEnds;

        Recorder(int stopAfter) {
            this.stopAfter = stopAfter;
        }

        @Override
        public void onTrainBatchEnd(int batch, Map<String, Double> logs) {
            batchEnds++;
        }

        @Override
        public void onEpochEnd(int epoch, Map<String, Double> logs) {
            epochWeights.add(new ArrayList<>(model.weightsByName().values()));
            if (epoch == stopAfter) {
                model.stopTraining();
            }
        }
    }

    @Test
    void driverCallbacksActWhileTheWorkersTrain() throws Exception {
        waitForExecutors(2);
        float[][] rows = data(512, 3);
        Path csv = Files.createTempFile("brisk-spark-log", ".csv");
        try {
            Model driver = mlp();
            seedWeights(driver, 7);
            Recorder seen = new Recorder(2);
            // The driver's scheduler halves the rate at epoch 1 and its recorder stops training after epoch 2 of 10:
            // both must reach the workers during the stage, at the same step on each.
            History h = SparkFit.of(SparkClusterTest::mlp).workers(2).epochs(10).batchSize(64).shuffle(false)
                    .callbacks(new LearningRateScheduler((e, lr) -> e == 1 ? lr / 2 : lr, false), seen,
                            new CsvLogger(csv))
                    .fit(driver, frame(rows), "label", "features");

            Tensor[] xy = globalOrder(rows, 2, 64);
            Model single = mlp();
            seedWeights(single, 7);
            Recorder alone = new Recorder(2);
            History hs = single.fit(xy[0], xy[1], Fit.epochs(10).batchSize(64).shuffle(false).verbose(0)
                    .callbacks(new LearningRateScheduler((e, lr) -> e == 1 ? lr / 2 : lr, false), alone));
            assertEquals(3, hs.get("loss").size());
            assertEquals(3, h.get("loss").size(), "the driver's stop did not end the workers' training");
            for (int e = 0; e < 3; e++) {
                assertEquals(hs.get("loss").get(e), h.get("loss").get(e), 1e-5, "loss of epoch " + e);
                assertEquals(hs.get("learning_rate").get(e), h.get("learning_rate").get(e), 0.0);
                assertTrue(relativeDifference(alone.epochWeights.get(e), seen.epochWeights.get(e)) < 1e-5,
                        "the driver's model did not hold epoch " + e + "'s weights in its callbacks");
            }
            assertEquals(3 * 8, seen.batchEnds, "every step's end should reach the driver");
            double rel = relativeDifference(single.getWeights(), driver.getWeights());
            assertTrue(rel < 1e-5, "Spark workers' weights differ from one process by " + rel);
            assertEquals(4, Files.readAllLines(csv).size(), "CsvLogger: a header and three epochs");
        } finally {
            Files.deleteIfExists(csv);
        }
    }

    @Test
    void killingAnExecutorMidTrainingResumesFromTheCheckpoint() throws Exception {
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        waitForExecutors(2);
        List<Long> pids = sc.parallelize(IntStream.range(0, 8).boxed().toList(), 8)
                .map(i -> ProcessHandle.current().pid()).distinct().collect();
        long victim = pids.stream().filter(p -> p != ProcessHandle.current().pid()).findFirst().orElseThrow();

        float[][] rows = data(2048, 2);
        int epochs = 8;
        Path dir = Files.createTempDirectory("brisk-spark-checkpoints");
        try {
            Model driver = mlp();
            seedWeights(driver, 9);
            SparkFit fit = SparkFit.of(SparkClusterTest::mlp).workers(2).epochs(epochs).batchSize(16)
                    .shuffle(false).checkpoint(dir.toString(), 25);
            CompletableFuture<History> training = CompletableFuture.supplyAsync(
                    () -> fit.fit(driver, frame(rows), "label", "features"));
            // Kill one executor JVM (SIGKILL) once the first checkpoint exists.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!hasCheckpoint(dir)) {
                assertTrue(System.nanoTime() < deadline, "no checkpoint was written");
                assertTrue(!training.isDone(), "training ended before the first checkpoint");
                Thread.sleep(5);
            }
            assertTrue(ProcessHandle.of(victim).orElseThrow().destroyForcibly(), "could not kill executor " + victim);
            History h = training.get(180, TimeUnit.SECONDS);

            WorkerResult result = fit.lastResult();
            assertTrue(result.stageAttempt() >= 1, "the stage was not retried (attempt " + result.stageAttempt() + ")");
            assertTrue(result.resumedAtStep() > 0, "the retried stage did not resume from a checkpoint");
            assertEquals(epochs, h.get("loss").size(), "History should hold every epoch");

            // The same run without the failure: resuming loses nothing and changes nothing.
            Tensor[] xy = globalOrder(rows, 2, 16);
            Model replicas = mlp();
            seedWeights(replicas, 9);
            replicas.fit(xy[0], xy[1], Fit.epochs(epochs).batchSize(16).shuffle(false).verbose(0)
                    .distribution(Distribution.replicas(2)));
            double rel = relativeDifference(replicas.getWeights(), driver.getWeights());
            assertTrue(rel < 1e-6, "the resumed run's weights differ from an uninterrupted run by " + rel);
            assertEquals(replicas.evaluate(xy[0], xy[1], 256).get("accuracy"),
                    driver.evaluate(xy[0], xy[1], 256).get("accuracy"), 1e-6);
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static boolean hasCheckpoint(Path dir) throws java.io.IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.anyMatch(p -> p.getFileName().toString().startsWith("checkpoint-"));
        }
    }
}

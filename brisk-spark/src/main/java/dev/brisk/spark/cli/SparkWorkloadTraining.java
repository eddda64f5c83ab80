package dev.brisk.spark.cli;

import dev.brisk.callbacks.History;
import dev.brisk.cli.ClusterJob;
import dev.brisk.cli.ClusterTraining;
import dev.brisk.cli.Workloads.Workload;
import dev.brisk.data.FashionMnist;
import dev.brisk.data.InMemoryDataset;
import dev.brisk.data.TrainTestSplit;
import dev.brisk.data.UnpackedCache;
import dev.brisk.nn.Model;
import dev.brisk.spark.SparkFit;
import dev.brisk.tensor.Tensor;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * {@code brisk train --master URL --workers N}: the workload trained with {@link SparkFit} on a Spark cluster. The
 * training set becomes a DataFrame ({@code pixels: array<float>, label: float}) whose partitions each read their
 * rows of the Fashion-MNIST files on their executor (the data directory must exist on every machine); the test set
 * is evaluated on the driver. Needs Spark on the class path (the {@code ./brisk} launcher adds it when it sees
 * {@code --master}; docs/distributed.md).
 */
public final class SparkWorkloadTraining implements ClusterTraining {
    /** For {@link java.util.ServiceLoader}. */
    public SparkWorkloadTraining() {
    }

    @Override
    public Run train(ClusterJob job, PrintStream out) {
        try {
            return run(job, out);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for the Spark executors", e);
        }
    }

    private static Run run(ClusterJob cmd, PrintStream out) throws InterruptedException {
        String master = cmd.master();
        int workers = cmd.workers();
        int epochs = cmd.epochs();
        Model model = cmd.model();
        if (master.startsWith("local-cluster") && System.getenv("SPARK_SCALA_VERSION") == null) {
            throw new IllegalArgumentException("--master " + master + " launches executor JVMs, which needs SPARK_SCALA_VERSION="
                    + "2.13 and SPARK_HOME (a folder with a jars/ subfolder) in the environment; the ./brisk launcher"
                    + " sets both");
        }
        SparkConf conf = new SparkConf().setMaster(master).setAppName("brisk-" + cmd.workload().id())
                .set("spark.ui.enabled", "false")
                .setIfMissing("spark.executor.extraClassPath", absoluteClassPath());
        if (master.startsWith("local")) {
            conf.set("spark.driver.host", "127.0.0.1").set("spark.driver.bindAddress", "127.0.0.1");
        }
        SparkSession spark = SparkSession.builder().config(conf).getOrCreate();
        try {
            JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            waitForExecutors(sc, master, workers);
            Dataset<Row> frame = trainingFrame(spark, sc, cmd.workload(), cmd.data(), cmd.trainSize(), workers);
            // The workloads' models travel to the executors as .keras bytes: the executors build nothing themselves.
            SparkFit fit = SparkFit.create().workers(workers).epochs(epochs).batchSize(cmd.batchSize())
                    .seed(cmd.seed()).overlap(cmd.overlap());
            if (cmd.checkpoint() != null) {
                fit.checkpoint(cmd.checkpoint(), cmd.checkpointEvery());
            }
            long start = System.nanoTime();
            History history = fit.fit(model, frame, "label", "pixels");
            double seconds = (System.nanoTime() - start) / 1e9;
            for (int e = 0; e < history.get("loss").size(); e++) {
                out.printf(Locale.ROOT, "epoch %d/%d - loss %.4f - accuracy %.4f - %.1f s - all-reduce %.2f ms/step%n",
                        e + 1, epochs, history.get("loss").get(e), history.get("accuracy").get(e),
                        history.get("epoch_s").get(e), history.get("allreduce_ms").get(e));
            }
            out.printf(Locale.ROOT, "the barrier stage took %.1f s%n", seconds);
            return new Run(history, taskCpus(sc));
        } finally {
            spark.stop();
        }
    }

    /** This JVM's class path with every entry absolute: executors start in their own working directories. */
    private static String absoluteClassPath() {
        StringBuilder sb = new StringBuilder();
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (!entry.isEmpty()) {
                sb.append(sb.isEmpty() ? "" : java.io.File.pathSeparator).append(Path.of(entry).toAbsolutePath());
            }
        }
        return sb.toString();
    }

    private static int taskCpus(JavaSparkContext sc) {
        return sc.getConf().getInt("spark.task.cpus", 1);
    }

    /** The barrier stage needs every task slot at once; submitted earlier, Spark's slot check waits 15 s. */
    private static void waitForExecutors(JavaSparkContext sc, String master, int workers) throws InterruptedException {
        if (master.startsWith("local[") || master.equals("local")) {
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (sc.sc().statusTracker().getExecutorInfos().length < workers + 1) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("fewer than " + workers + " executors registered within 180 s on "
                        + master);
            }
            Thread.sleep(100);
        }
    }

    /** The training rows as a DataFrame; each of the {@code parts} partitions reads its own rows on its executor. */
    private static Dataset<Row> trainingFrame(SparkSession spark, JavaSparkContext sc, Workload workload, Path data,
                                              int size, int parts) {
        String dir = data.toAbsolutePath().toString();
        JavaRDD<Row> rows = sc.parallelize(IntStream.range(0, parts).boxed().toList(), parts)
                .flatMap(p -> rowsOf(workload, dir, size, p, parts));
        StructType schema = new StructType()
                .add("pixels", DataTypes.createArrayType(DataTypes.FloatType, false), false)
                .add("label", DataTypes.FloatType, false);
        return spark.createDataFrame(rows, schema);
    }

    private static Iterator<Row> rowsOf(Workload workload, String dir, int size, int part, int parts)
            throws java.io.IOException {
        TrainTestSplit split = FashionMnist.load(Path.of(dir), 255f, UnpackedCache.fromEnvironment());
        InMemoryDataset train = workload.prepare(split.train()).take(size);
        Tensor x = train.features();
        Tensor y = train.labels();
        int per = x.size() / Math.max(1, x.shape().dim(0));
        int from = (int) ((long) size * part / parts);
        int to = (int) ((long) size * (part + 1) / parts);
        List<Row> out = new ArrayList<>(to - from);
        float[] data = x.data();
        for (int i = from; i < to; i++) {
            float[] row = new float[per];
            System.arraycopy(data, x.offset() + i * per, row, 0, per);
            out.add(RowFactory.create(row, y.get(i)));
        }
        return out.iterator();
    }
}

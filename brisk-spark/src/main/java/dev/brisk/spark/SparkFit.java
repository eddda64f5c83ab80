package dev.brisk.spark;

import dev.brisk.callbacks.BackupAndRestore;
import dev.brisk.callbacks.Callback;
import dev.brisk.callbacks.History;
import dev.brisk.distribute.RingListener;
import dev.brisk.nn.Model;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.StructType;
import scala.Tuple2;
import scala.reflect.ClassTag$;

/**
 * Trains a Brisk model on a Spark {@code Dataset<Row>} or RDD with N workers: synchronous data parallelism, the
 * computation of one process training with the same global batch.
 *
 * <pre>{@code
 * ModelFactory factory = () -> {            // runs on the driver and on every executor
 *     Model m = Sequential.of(Layers.input(784), Layers.dense(512, Activation.RELU), Layers.dense(10));
 *     m.compile(Optimizers.adam(1e-3f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
 *     return m;
 * };
 * Model model = factory.create();
 * History h = SparkFit.of(factory).workers(2).epochs(5).batchSize(128)
 *         .checkpoint("hdfs:///jobs/w1/checkpoints", 200)
 *         .fit(model, dataFrame, "pixels", "label");  // model now holds the trained weights
 * }</pre>
 *
 * <p>How it runs: the rows are numbered and dealt to the workers (row {@code i} to worker {@code i mod N}, in
 * order), then one barrier stage runs a task per worker. Each task listens on its executor's address (port
 * {@link #ringPort}, 0 for any), the tasks exchange addresses once with {@code BarrierTaskContext.allGather}, and
 * form a ring of TCP connections that carries the gradients of every step (Spark's own {@code allGather} answers
 * in one-second polls, far too slow per step). The driver's model's weights are broadcast as the starting point;
 * rank 0 returns the trained weights, which are set into the driver's model. Rank 0 writes a checkpoint every
 * {@link #checkpoint(String, int) K steps}; if the stage fails (an executor dies), Spark runs it again and the workers resume
 * from the newest checkpoint.
 *
 * <p>Callbacks run on the driver while the stage runs: rank 0 reports each epoch over a small TCP connection to a
 * listener on the driver (port {@link #callbackPort}, the job's token checked as in the ring), with the epoch's logs
 * averaged over the workers and the weights after it, and waits for the driver's answer; so History, CsvLogger,
 * ModelCheckpoint, EarlyStopping and ReduceLROnPlateau act as in single-process training, and a stop reaches every
 * worker at the same step.
 */
public final class SparkFit {
    /** What the workers need, serialized into the task. */
    record Settings(int epochs, int batchSize, long seed, boolean shuffle, String checkpointDir, int checkpointEvery,
                    int ringPort, long ringTimeoutMillis, String driverHost, int driverPort, boolean driverSteps,
                    boolean overlap)
            implements Serializable {
    }

    private final ModelFactory factory;
    private int workers = 2;
    private int epochs = 1;
    private int batchSize = 32;
    private long seed = 1;
    private boolean shuffle = true;
    private String checkpointDir;
    private int checkpointEvery;
    private int ringPort;
    private int callbackPort;
    private boolean overlap;
    private Duration ringTimeout = Duration.ofSeconds(120);
    private final List<Callback> callbacks = new ArrayList<>();
    private WorkerResult lastResult;

    private SparkFit(ModelFactory factory) {
        this.factory = factory;
    }

    /**
     * A fit whose workers build their model with {@code factory}, for models brisk-keras cannot write as a
     * {@code .keras} file (a learning-rate schedule or a loss of the user's own); the driver's model's weights are
     * broadcast as the starting point.
     *
     * @param factory builds and compiles the model on each executor
     * @return the fit, to configure
     */
    public static SparkFit of(ModelFactory factory) {
        return new SparkFit(Objects.requireNonNull(factory, "factory"));
    }

    /**
     * A fit that sends the driver's compiled model to the workers as a {@code .keras} file (its architecture,
     * compile settings and initial weights, written by brisk-keras and broadcast once): the executors need no code
     * of the user's. A model brisk-keras cannot write is refused by {@code fit}, naming why: use
     * {@link #of(ModelFactory)} for it.
     *
     * @return the fit, to configure
     */
    public static SparkFit create() {
        return new SparkFit(null);
    }

    /**
     * The number of workers (tasks of the barrier stage; the cluster needs that many free task slots at once).
     *
     * @param n the workers, at least 1
     * @return this
     */
    public SparkFit workers(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("workers must be at least 1, got " + n);
        }
        this.workers = n;
        return this;
    }

    /**
     * The number of epochs.
     *
     * @param n at least 1
     * @return this
     */
    public SparkFit epochs(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("epochs must be at least 1, got " + n);
        }
        this.epochs = n;
        return this;
    }

    /**
     * The global batch size, shared out among the workers (Keras' global batch).
     *
     * @param size at least the number of workers
     * @return this
     */
    public SparkFit batchSize(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("batch size must be at least 1, got " + size);
        }
        this.batchSize = size;
        return this;
    }

    /**
     * The seed of each worker's per-epoch shuffle of its rows (a retried stage draws the same order).
     *
     * @param seed the seed
     * @return this
     */
    public SparkFit seed(long seed) {
        this.seed = seed;
        return this;
    }

    /**
     * Whether each worker shuffles its rows every epoch (default true).
     *
     * @param shuffle whether to shuffle
     * @return this
     */
    public SparkFit shuffle(boolean shuffle) {
        this.shuffle = shuffle;
        return this;
    }

    /**
     * Rank 0 writes a checkpoint into {@code folder} (a Hadoop-compatible path the executors can all reach)
     * every {@code everySteps} steps, and a retried stage resumes from the newest one. A folder that already holds
     * checkpoints makes a new fit resume from them too: use a fresh folder per job.
     *
     * @param folder the folder
     * @param everySteps steps between checkpoints, at least 1
     * @return this
     */
    public SparkFit checkpoint(String folder, int everySteps) {
        if (everySteps < 1) {
            throw new IllegalArgumentException("checkpoint interval must be at least 1 step, got " + everySteps);
        }
        this.checkpointDir = Objects.requireNonNull(folder, "folder");
        this.checkpointEvery = everySteps;
        return this;
    }

    /**
     * The port each worker's ring listens on (default 0: any free port; give one to open in a firewall; two workers
     * on one host then need distinct hosts or ports).
     *
     * @param port the port, 0 to 65535
     * @return this
     */
    public SparkFit ringPort(int port) {
        this.ringPort = checkPort(port);
        return this;
    }

    private static int checkPort(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be in [0, 65535], got " + port);
        }
        return port;
    }

    /**
     * How long any one ring operation may wait for a peer before the task fails (default 120 s).
     *
     * @param timeout the timeout
     * @return this
     */
    public SparkFit ringTimeout(Duration timeout) {
        this.ringTimeout = Objects.requireNonNull(timeout, "timeout");
        return this;
    }

    /**
     * Whether each worker's gradient exchange overlaps its backward pass, bucket by bucket (default off; see
     * {@link dev.brisk.nn.Distribution#overlap(boolean)}): the same bits either way.
     *
     * @param on whether to overlap
     * @return this
     */
    public SparkFit overlap(boolean on) {
        this.overlap = on;
        return this;
    }

    /**
     * The port the driver listens on for rank 0's reports to the callbacks (default 0: any free port; give one to
     * open in a firewall between the executors and the driver).
     *
     * @param port the port, 0 to 65535
     * @return this
     */
    public SparkFit callbackPort(int port) {
        this.callbackPort = checkPort(port);
        return this;
    }

    /**
     * Callbacks that run on the driver while the workers train, as in single-process {@code fit}: rank 0 reports
     * each epoch's begin and end (and each step's end when a callback handles steps), the driver's model holds the
     * weights of the last finished epoch, and a callback that stops training (EarlyStopping, TerminateOnNaN) or
     * sets the learning rate (ReduceLROnPlateau, LearningRateScheduler) stops or changes every worker. BackupAndRestore
     * is refused: {@link #checkpoint} does its job on a cluster.
     *
     * @param cbs the callbacks
     * @return this
     */
    public SparkFit callbacks(Callback... cbs) {
        for (Callback cb : cbs) {
            if (cb instanceof BackupAndRestore) {
                throw new IllegalArgumentException("BackupAndRestore cannot restore the workers of a Spark fit: use "
                        + "SparkFit.checkpoint(folder, steps), from which a retried stage resumes");
            }
        }
        callbacks.addAll(List.of(cbs));
        return this;
    }

    /**
     * What rank 0 sent back from the last fit (where it resumed, the stage attempt), or null before one.
     *
     * @return the last result
     */
    public WorkerResult lastResult() {
        return lastResult;
    }

    /**
     * Trains on a DataFrame: {@code featureColumns} are either one array column (of any numeric type, as many
     * values as the model's input has elements) or one numeric column per input element; {@code labelColumn} is
     * numeric (a class index for sparse losses).
     *
     * @param model the driver's model, built by the same factory; it starts the workers and gets the trained weights
     * @param data the rows
     * @param labelColumn the label column
     * @param featureColumns the feature column(s)
     * @return the History of the training
     */
    public History fit(Model model, Dataset<Row> data, String labelColumn, String... featureColumns) {
        if (featureColumns.length == 0) {
            throw new IllegalArgumentException("name the feature column(s)");
        }
        StructType schema = data.schema();
        int label = schema.fieldIndex(labelColumn);
        int[] features = new int[featureColumns.length];
        for (int i = 0; i < features.length; i++) {
            features[i] = schema.fieldIndex(featureColumns[i]);
        }
        boolean array = features.length == 1 && schema.fields()[features[0]].dataType() instanceof ArrayType;
        JavaRDD<Sample> samples = data.javaRDD().map(row -> toSample(row, features, array, label));
        return fit(model, samples);
    }

    private static Sample toSample(Row row, int[] features, boolean array, int label) {
        float[] x;
        if (array) {
            List<Object> values = row.getList(features[0]);
            x = new float[values.size()];
            for (int i = 0; i < x.length; i++) {
                x[i] = ((Number) values.get(i)).floatValue();
            }
        } else {
            x = new float[features.length];
            for (int i = 0; i < x.length; i++) {
                x[i] = ((Number) row.get(features[i])).floatValue();
            }
        }
        return new Sample(x, ((Number) row.get(label)).floatValue());
    }

    /**
     * Trains on an RDD of samples.
     *
     * @param model the driver's model, built by the same factory; it starts the workers and gets the trained weights
     * @param data the samples
     * @return the History of the training
     */
    public History fit(Model model, JavaRDD<Sample> data) {
        if (model.optimizer() == null) {
            throw new IllegalArgumentException("model '" + model.name() + "' is not compiled: compile it (the same "
                    + "way the workers' models are) before SparkFit.fit");
        }
        // The model travels as .keras bytes (weights included) when no factory builds it; else only its weights.
        byte[] modelFile = factory == null ? KerasBytesFactory.write(model) : null;
        int n = workers;
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(data.context());
        int[] inputDims = model.inputs().get(0).shape().dims();
        int samples = (int) Math.min(Integer.MAX_VALUE, data.count());
        byte[] token = RingListener.newToken();
        DriverCallbacks driver = driverCallbacks(sc, model, samples, token);
        Settings settings = new Settings(epochs, batchSize, seed, shuffle, checkpointDir, checkpointEvery, ringPort,
                ringTimeout.toMillis(), driver.address().getAddress().getHostAddress(), driver.address().getPort(),
                DriverCallbacks.wantsSteps(callbacks), overlap);
        Broadcast<byte[]> keras = null;
        Broadcast<float[][]> weights = null;
        List<WorkerResult> results;
        try {
            ModelFactory build = factory;
            if (factory == null) {
                keras = sc.broadcast(modelFile);
                build = new KerasBytesFactory(keras);
            } else {
                weights = sc.broadcast(TrainingCheckpoint.arrays(model.getWeights()));
            }
            // Row i goes to worker i mod n, in order: a fixed deal, so a retried stage sees the same rows.
            JavaPairRDD<Long, Sample> dealt = data.zipWithIndex()
                    .mapToPair(t -> new Tuple2<>(t._2(), t._1()))
                    .repartitionAndSortWithinPartitions(new ModuloPartitioner(n));
            RDD<Sample> rows = dealt.values().rdd();
            RingTask task = new RingTask(build, weights, inputDims, settings, token);
            RDD<WorkerResult> out = rows.barrier().mapPartitions(task, false,
                    ClassTag$.MODULE$.apply(WorkerResult.class));
            // A shuffle after the barrier stage makes it a shuffle-map stage, which Spark retries after a failure; a
            // barrier result stage is not retried ("Could not recover from a failed barrier ResultStage").
            results = JavaRDD.fromRDD(out, ClassTag$.MODULE$.apply(WorkerResult.class)).repartition(1).collect();
            if (results.size() != 1) {
                throw new IllegalStateException("expected one result from rank 0, got " + results.size());
            }
        } catch (RuntimeException | Error e) {
            driver.failed(e);
            throw e;
        } finally {
            if (weights != null) {
                weights.destroy();
            }
            if (keras != null) {
                keras.destroy();
            }
        }
        lastResult = results.get(0);
        return driver.finish(lastResult);
    }

    /** The driver's end of the callbacks, listening on the driver's address (Spark's {@code spark.driver.host}). */
    private DriverCallbacks driverCallbacks(JavaSparkContext sc, Model model, int samples, byte[] token) {
        try {
            String host = sc.getConf().get("spark.driver.host", InetAddress.getLocalHost().getHostAddress());
            return new DriverCallbacks(callbacks, model, epochs, samples, sc.getConf().getInt("spark.task.cpus", 1),
                    InetAddress.getByName(host), callbackPort, token, ringTimeout);
        } catch (IOException e) {
            throw new UncheckedIOException("could not listen for the workers' callback reports: " + e.getMessage(), e);
        }
    }

    /** Key {@code i} to partition {@code i mod n}. */
    static final class ModuloPartitioner extends Partitioner {
        private static final long serialVersionUID = 1L;
        private final int n;

        ModuloPartitioner(int n) {
            this.n = n;
        }

        @Override
        public int numPartitions() {
            return n;
        }

        @Override
        public int getPartition(Object key) {
            return (int) Math.floorMod((Long) key, (long) n);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ModuloPartitioner p && p.n == n;
        }

        @Override
        public int hashCode() {
            return n;
        }
    }

}

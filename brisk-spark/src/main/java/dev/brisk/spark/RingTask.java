package dev.brisk.spark;

import dev.brisk.distribute.ControlChannel;
import dev.brisk.distribute.RingListener;
import dev.brisk.distribute.RingTransport;
import dev.brisk.distribute.SocketRing;
import dev.brisk.nn.Distribution;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Model;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.BarrierTaskInfo;
import org.apache.spark.broadcast.Broadcast;
import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.AbstractFunction1;

/**
 * One worker of the barrier stage: listens for the ring on its executor's address, exchanges addresses once with
 * {@code allGather}, joins the ring, then trains its partition with {@link Distribution#worker}. Rank 0 writes the
 * checkpoints, reports to the driver's callbacks ({@link DriverLink}) and returns the result; the other ranks return
 * nothing.
 */
final class RingTask extends AbstractFunction1<Iterator<Sample>, Iterator<WorkerResult>> implements Serializable {
    private static final long serialVersionUID = 1L;

    private final ModelFactory factory;
    /** The driver's weights to start from, or null when the factory's models already hold them. */
    private final Broadcast<float[][]> initialWeights;
    private final int[] inputDims;
    private final SparkFit.Settings settings;
    private final byte[] token;

    RingTask(ModelFactory factory, Broadcast<float[][]> initialWeights, int[] inputDims, SparkFit.Settings settings,
             byte[] token) {
        this.factory = factory;
        this.initialWeights = initialWeights;
        this.inputDims = inputDims;
        this.settings = settings;
        this.token = token;
    }

    @Override
    public Iterator<WorkerResult> apply(Iterator<Sample> partition) {
        List<Sample> rows = new ArrayList<>();
        while (partition.hasNext()) {
            rows.add(partition.next());
        }
        BarrierTaskContext ctx = BarrierTaskContext.get();
        int rank = ctx.partitionId();
        BarrierTaskInfo[] infos = ctx.getTaskInfos();
        if (ctx.cpus() > 0) {
            ThreadBudget.set(ctx.cpus());
        }
        try {
            InetAddress host = InetAddress.getByName(hostOf(infos[rank].address()));
            RingListener listener = RingListener.open(host, settings.ringPort());
            String[] all = ctx.allGather(listener.address().getAddress().getHostAddress() + ":"
                    + listener.address().getPort());
            List<InetSocketAddress> addresses = new ArrayList<>();
            for (String a : all) {
                int colon = a.lastIndexOf(':');
                addresses.add(new InetSocketAddress(a.substring(0, colon), Integer.parseInt(a.substring(colon + 1))));
            }
            Duration timeout = Duration.ofMillis(settings.ringTimeoutMillis());
            try (RingTransport ring = SocketRing.join(listener, rank, addresses, token, timeout);
                 ControlChannel driver = rank == 0 ? ControlChannel.connect(new InetSocketAddress(
                         settings.driverHost(), settings.driverPort()), token, timeout) : null) {
                WorkerResult r = train(ring, driver, rows, ctx.stageAttemptNumber());
                return CollectionConverters.asScala(rank == 0 ? List.of(r).iterator() : List.<WorkerResult>of()
                        .iterator());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("brisk worker " + rank + " of " + infos.length + ": " + e.getMessage(), e);
        }
    }

    private WorkerResult train(RingTransport ring, ControlChannel driver, List<Sample> rows, int attempt)
            throws IOException {
        int rank = ring.rank();
        Model model = factory.create();
        TrainingCheckpoint checkpoint = settings.checkpointDir() == null ? null
                : TrainingCheckpoint.loadLatest(settings.checkpointDir());
        List<Map<String, Double>> earlier = List.of();
        if (checkpoint != null) {
            checkpoint.restore(model);
            earlier = checkpoint.epochLogs();
            System.err.println("brisk: worker " + rank + " resumes from the checkpoint of step "
                    + checkpoint.globalStep() + " (epoch " + checkpoint.epoch() + ", step " + checkpoint.stepInEpoch()
                    + "), stage attempt " + attempt);
        } else if (initialWeights != null) {
            TrainingCheckpoint.setWeights(model, initialWeights.value());
        }
        int firstEpoch = checkpoint == null ? 0 : checkpoint.epoch();
        CheckpointCallback keeper = new CheckpointCallback(model, rank == 0 ? settings.checkpointDir() : null,
                settings.checkpointEvery(), checkpoint == null ? 0 : checkpoint.globalStep(), earlier);
        if (firstEpoch < settings.epochs()) {
            Tensor[] xy = tensors(rows);
            Fit fit = Fit.epochs(settings.epochs()).batchSize(settings.batchSize()).shuffle(settings.shuffle())
                    .seed(settings.seed()).verbose(0).distribution(Distribution.worker(ring).overlap(settings.overlap()))
                    .callbacks(keeper, new DriverLink(ring, driver, settings.driverSteps(), attempt, model));
            if (checkpoint != null) {
                fit.resumeAt(checkpoint.epoch(), checkpoint.stepInEpoch());
            }
            model.fit(xy[0], xy[1], fit);
        }
        List<Map<String, Double>> logs = new ArrayList<>();
        keeper.epochLogs().forEach(m -> logs.add(new LinkedHashMap<>(m)));
        TrainingCheckpoint end = TrainingCheckpoint.of(model, 0, 0, 0, List.of());
        return new WorkerResult(end.weights(), end.slots(), end.iterations(), logs, firstEpoch,
                checkpoint == null ? -1 : checkpoint.globalStep(), attempt);
    }

    private Tensor[] tensors(List<Sample> rows) {
        int per = 1;
        for (int d : inputDims) {
            per *= d;
        }
        float[] x = new float[rows.size() * per];
        float[] y = new float[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            float[] f = rows.get(i).features();
            if (f.length != per) {
                throw new IllegalArgumentException("row " + i + " of this partition has " + f.length
                        + " features, the model's input takes " + per);
            }
            System.arraycopy(f, 0, x, i * per, per);
            y[i] = rows.get(i).label();
        }
        int[] dims = new int[inputDims.length + 1];
        dims[0] = rows.size();
        System.arraycopy(inputDims, 0, dims, 1, inputDims.length);
        return new Tensor[] {Tensor.of(x, dims), Tensor.of(y, rows.size())};
    }

    /** The host of Spark's "host:port" task address (an IPv6 host comes in brackets). */
    static String hostOf(String address) {
        int colon = address.lastIndexOf(':');
        String host = colon > 0 ? address.substring(0, colon) : address;
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }
}

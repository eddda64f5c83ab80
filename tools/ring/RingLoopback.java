import dev.brisk.distribute.RingAllReduce;
import dev.brisk.distribute.RingListener;
import dev.brisk.distribute.RingTransport;
import dev.brisk.distribute.SocketRing;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Times the TCP ring all-reduce on loopback: N ranks as threads of this JVM, each with its own sockets, for the
 * gradient sizes of W1 and W2 and a small vector (which shows the per-step latency). Prints one line per case:
 * the median milliseconds of one all-reduce over 40 runs after 10 warm-up runs.
 *
 * Run from the repository root after a build (docs/distributed.md):
 *   java -cp brisk-core/target/classes tools/ring/RingLoopback.java
 */
public class RingLoopback {
    public static void main(String[] args) throws Exception {
        int[][] cases = {{669_706}, {225_034}, {1_000}};
        String[] names = {"w1 (669,706 floats)", "w2 (225,034 floats)", "small (1,000 floats)"};
        for (int n = 2; n <= 4; n++) {
            for (int c = 0; c < cases.length; c++) {
                double ms = time(n, cases[c][0]);
                System.out.printf(Locale.ROOT, "ranks=%d vector=%s median_ms=%.3f%n", n, names[c], ms);
            }
        }
    }

    static double time(int n, int length) throws Exception {
        byte[] token = RingListener.newToken();
        List<RingListener> listeners = new ArrayList<>();
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            RingListener l = RingListener.open(InetAddress.getLoopbackAddress(), 0);
            listeners.add(l);
            addresses.add(l.address());
        }
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<double[]>> futures = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                int rank = r;
                futures.add(pool.submit(() -> {
                    try (RingTransport t = SocketRing.join(listeners.get(rank), rank, addresses, token,
                            Duration.ofSeconds(30))) {
                        RingAllReduce reduce = new RingAllReduce(t);
                        float[] data = new float[length];
                        double[] times = new double[40];
                        for (int i = -10; i < times.length; i++) {
                            long start = System.nanoTime();
                            reduce.sum(data, 0, length);
                            if (i >= 0) {
                                times[i] = (System.nanoTime() - start) / 1e6;
                            }
                        }
                        return times;
                    }
                }));
            }
            double[] times = futures.get(0).get();
            for (Future<double[]> f : futures) {
                f.get();
            }
            java.util.Arrays.sort(times);
            return times[times.length / 2];
        } finally {
            pool.shutdownNow();
        }
    }
}

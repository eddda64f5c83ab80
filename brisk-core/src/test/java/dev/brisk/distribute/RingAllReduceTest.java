package dev.brisk.distribute;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The ring all-reduce on real transports: threads in memory, and TCP sockets on loopback. */
class RingAllReduceTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final int[] LENGTHS = {0, 1, 2, 3, 7, 1001, 65_537};

    /** One rank's work: reduce its vector, return the result. */
    private interface RankTask {
        float[] run(int rank) throws Exception;
    }

    private static List<float[]> runRanks(int n, RankTask task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<float[]>> futures = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                int rank = r;
                futures.add(pool.submit(() -> task.run(rank)));
            }
            List<float[]> out = new ArrayList<>();
            for (Future<float[]> f : futures) {
                out.add(f.get());
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    private static float[][] inputs(int n, int length, long seed) {
        Random random = new Random(seed);
        float[][] parts = new float[n][length];
        for (float[] p : parts) {
            for (int i = 0; i < length; i++) {
                // Values of mixed magnitude, so that the order of additions shows in the bits.
                p[i] = (float) (random.nextGaussian() * Math.pow(10, random.nextInt(5) - 2));
            }
        }
        return parts;
    }

    private static void checkSums(float[][] parts, List<float[]> results, int length) {
        float[] expected = new float[length];
        RingOrder.sum(parts, expected, 0, length, length);
        for (int i = 0; i < length; i++) {
            double exact = 0;
            double magnitude = 0;
            for (float[] p : parts) {
                exact += p[i];
                magnitude += Math.abs(p[i]);
            }
            // Float rounding of each partial sum: a few ulps of the largest magnitude involved.
            assertEquals(exact, expected[i], 1e-6 * parts.length * magnitude + 1e-30, "element " + i);
        }
        for (int r = 0; r < results.size(); r++) {
            assertArrayEquals(expected, results.get(r), "rank " + r + " has other bits than the ring's order");
        }
    }

    @Test
    void memoryRingSumsAnyLengthOnTwoToFiveRanks() throws Exception {
        for (int n = 2; n <= 5; n++) {
            for (int length : LENGTHS) {
                float[][] parts = inputs(n, length, 31L * n + length);
                List<MemoryRing> ring = MemoryRing.create(n, TIMEOUT);
                List<float[]> results = runRanks(n, r -> {
                    float[] data = parts[r].clone();
                    new RingAllReduce(ring.get(r)).sum(data, 0, length);
                    return data;
                });
                checkSums(parts, results, length);
            }
        }
    }

    /**
     * Reducing a vector bucket by bucket (the overlapped exchange) adds every element in the order of reducing it
     * at once: the same bits, on 2 to 5 ranks, with buckets that cut chunks anywhere (empty pieces included).
     */
    @Test
    void bucketByBucketGivesTheBitsOfTheWholeVector() throws Exception {
        int length = 1001;
        int[] cuts = {0, 1, 2, 250, 251, 333, 700, 998, 1001};
        for (int n = 2; n <= 5; n++) {
            float[][] parts = inputs(n, length + 3, 17L * n);
            List<MemoryRing> ring = MemoryRing.create(n, TIMEOUT);
            List<float[]> results = runRanks(n, r -> {
                float[] data = parts[r].clone();
                RingAllReduce reduce = new RingAllReduce(ring.get(r));
                // Buckets from the back, as the backward pass finishes them; the vector starts at offset 3.
                for (int b = cuts.length - 1; b > 0; b--) {
                    reduce.sum(data, 3, length, cuts[b - 1], cuts[b]);
                }
                return java.util.Arrays.copyOfRange(data, 3, 3 + length);
            });
            float[][] shifted = new float[n][];
            for (int r = 0; r < n; r++) {
                shifted[r] = java.util.Arrays.copyOfRange(parts[r], 3, 3 + length);
            }
            checkSums(shifted, results, length);
        }
        assertThrows(IllegalArgumentException.class,
                () -> new RingAllReduce(MemoryRing.create(1, TIMEOUT).get(0)).sum(new float[4], 0, 4, 3, 5));
    }

    @Test
    void offsetWindowOnlyIsReduced() throws Exception {
        int n = 3;
        float[][] parts = inputs(n, 20, 7);
        List<MemoryRing> ring = MemoryRing.create(n, TIMEOUT);
        List<float[]> results = runRanks(n, r -> {
            float[] data = parts[r].clone();
            new RingAllReduce(ring.get(r)).sum(data, 5, 11);
            return data;
        });
        for (int r = 0; r < n; r++) {
            for (int i = 0; i < 20; i++) {
                float want = i < 5 || i >= 16 ? parts[r][i] : parts[0][i] + parts[1][i] + parts[2][i];
                assertEquals(want, results.get(r)[i], 1e-5f * Math.max(1, Math.abs(want)), "rank " + r + " " + i);
            }
        }
    }

    @Test
    void socketRingSumsOnLoopbackWithTheSameBitsEveryTime() throws Exception {
        byte[] token = RingListener.newToken();
        for (int n = 2; n <= 5; n++) {
            for (int length : new int[] {1, 3, 1001, 65_537}) {
                float[][] parts = inputs(n, length, 17L * n + length);
                List<float[]> first = null;
                for (int round = 0; round < 2; round++) {
                    List<float[]> results = socketRun(n, token, parts, length);
                    checkSums(parts, results, length);
                    if (first != null) {
                        for (int r = 0; r < n; r++) {
                            assertArrayEquals(first.get(r), results.get(r), "a second run gave other bits");
                        }
                    }
                    first = results;
                }
            }
        }
    }

    private static List<float[]> socketRun(int n, byte[] token, float[][] parts, int length) throws Exception {
        List<RingListener> listeners = new ArrayList<>();
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            RingListener l = RingListener.open(InetAddress.getLoopbackAddress(), 0);
            listeners.add(l);
            addresses.add(l.address());
        }
        return runRanks(n, r -> {
            try (RingTransport t = SocketRing.join(listeners.get(r), r, addresses, token, TIMEOUT)) {
                RingAllReduce reduce = new RingAllReduce(t);
                float[] data = parts[r].clone();
                reduce.sum(data, 0, length);
                // A second reduction over the same connections: sums of the sums.
                float[] again = data.clone();
                reduce.sum(again, 0, length);
                for (int i = 0; i < length; i++) {
                    assertEquals(n * data[i], again[i], 1e-5f * Math.max(1, Math.abs(n * data[i])));
                }
                return data;
            }
        });
    }

    @Test
    void aConnectionWithAnotherTokenIsRefusedAndTheRingStillForms() throws Exception {
        int n = 2;
        byte[] token = RingListener.newToken();
        List<RingListener> listeners = new ArrayList<>();
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            RingListener l = RingListener.open(InetAddress.getLoopbackAddress(), 0);
            listeners.add(l);
            addresses.add(l.address());
        }
        // A stranger greets rank 0's listener first with a wrong token.
        try (SocketChannel stranger = SocketChannel.open(addresses.get(0))) {
            stranger.write(SocketRing.greeting(RingListener.newToken(), 1, 2));
            float[][] parts = inputs(n, 9, 3);
            List<float[]> results = runRanks(n, r -> {
                try (RingTransport t = SocketRing.join(listeners.get(r), r, addresses, token, TIMEOUT)) {
                    float[] data = parts[r].clone();
                    new RingAllReduce(t).sum(data, 0, 9);
                    return data;
                }
            });
            checkSums(parts, results, 9);
            // The stranger was closed, not answered.
            stranger.socket().setSoTimeout(2000);
            assertEquals(-1, stranger.socket().getInputStream().read(), "the stranger got an answer");
        }
    }

    @Test
    void aRankWithAnotherTokenCannotJoin() {
        int n = 2;
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            List<RingListener> listeners = new ArrayList<>();
            List<InetSocketAddress> addresses = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                RingListener l = RingListener.open(InetAddress.getLoopbackAddress(), 0);
                listeners.add(l);
                addresses.add(l.address());
            }
            byte[][] tokens = {RingListener.newToken(), RingListener.newToken()};
            ExecutionException e = assertThrows(ExecutionException.class, () -> runRanks(n, r -> {
                try (RingTransport t = SocketRing.join(listeners.get(r), r, addresses, tokens[r],
                        Duration.ofSeconds(2))) {
                    return new float[0];
                }
            }));
            assertTrue(e.getCause() instanceof RingException, e.getCause().toString());
            assertTrue(e.getCause().getMessage().contains("token"), e.getCause().getMessage());
        });
    }

    @Test
    void aPeerThatLeavesGivesAClearErrorNotAHang() {
        for (boolean sockets : new boolean[] {false, true}) {
            int n = 3;
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                List<RingTransport> ends = sockets ? socketRing(n) : new ArrayList<>(MemoryRing.create(n, TIMEOUT));
                ExecutionException e = assertThrows(ExecutionException.class, () -> runRanks(n, r -> {
                    float[] data = new float[1000];
                    RingAllReduce reduce = new RingAllReduce(ends.get(r));
                    reduce.sum(data, 0, data.length);
                    if (r == 2) {
                        ends.get(r).close();
                        return data;
                    }
                    try {
                        reduce.sum(data, 0, data.length);
                    } finally {
                        ends.get(r).close();
                    }
                    return data;
                }), sockets ? "sockets" : "memory");
                assertTrue(e.getCause() instanceof RingException, e.getCause().toString());
                String m = e.getCause().getMessage();
                assertTrue(m.contains("left the ring") || m.contains("lost rank") || m.contains("was closed"), m);
            });
        }
    }

    @Test
    void aPeerThatNeverAnswersTimesOut() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            List<MemoryRing> ends = MemoryRing.create(2, Duration.ofMillis(300));
            RingException e = assertThrows(RingException.class,
                    () -> new RingAllReduce(ends.get(0)).sum(new float[10], 0, 10));
            assertTrue(e.getMessage().contains("timed out") && e.getMessage().contains("rank 1"), e.getMessage());
            List<RingTransport> socket = socketRing(2, Duration.ofMillis(300));
            RingException s = assertThrows(RingException.class,
                    () -> new RingAllReduce(socket.get(0)).sum(new float[10], 0, 10));
            assertTrue(s.getMessage().contains("timed out") && s.getMessage().contains("rank 1"), s.getMessage());
            for (RingTransport t : socket) {
                t.close();
            }
        });
    }

    @Test
    void lengthsThatDisagreeAreAnErrorNotGarbage() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            List<RingTransport> ends = socketRing(2);
            ExecutionException e = assertThrows(ExecutionException.class, () -> runRanks(2, r -> {
                float[] data = new float[r == 0 ? 10 : 12];
                try {
                    new RingAllReduce(ends.get(r)).sum(data, 0, data.length);
                } finally {
                    ends.get(r).close();
                }
                return data;
            }));
            String m = e.getCause().getMessage();
            assertTrue(m.contains("same length") || m.contains("left the ring") || m.contains("lost"), m);
        });
    }

    private static List<RingTransport> socketRing(int n) throws Exception {
        return socketRing(n, TIMEOUT);
    }

    private static List<RingTransport> socketRing(int n, Duration timeout) throws Exception {
        byte[] token = RingListener.newToken();
        List<RingListener> listeners = new ArrayList<>();
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            RingListener l = RingListener.open(InetAddress.getLoopbackAddress(), 0);
            listeners.add(l);
            addresses.add(l.address());
        }
        List<RingTransport> ends = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<RingTransport>> f = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                int rank = r;
                f.add(pool.submit(() -> SocketRing.join(listeners.get(rank), rank, addresses, token, timeout)));
            }
            for (Future<RingTransport> x : f) {
                ends.add(x.get());
            }
        } finally {
            pool.shutdownNow();
        }
        return ends;
    }

    @Test
    void aRingOfOneLeavesTheDataAlone() throws IOException {
        float[] data = {1, 2, 3};
        new RingAllReduce(MemoryRing.create(1, TIMEOUT).get(0)).sum(data, 0, 3);
        assertArrayEquals(new float[] {1, 2, 3}, data);
    }
}

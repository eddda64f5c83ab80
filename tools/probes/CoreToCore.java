import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * What data costs when it moves between two cores: a cache line's round trip between two spinning threads, then
 * reading an array the other thread has just written against one the reader wrote itself. On a VM whose vCPUs sit
 * far apart this is what a kernel pays for input that another thread produced.
 * Run: java --add-modules jdk.incubator.vector tools/probes/CoreToCore.java
 */
public class CoreToCore {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static volatile int ping;
    private static volatile int pong;
    private static volatile int turn;
    private static float[] data;
    private static float sink;

    public static void main(String[] args) throws Exception {
        int trips = 2_000_000;
        Thread echo = new Thread(() -> {
            for (int i = 1; i <= trips; i++) {
                while (ping != i) {
                    Thread.onSpinWait();
                }
                pong = i;
            }
        });
        echo.start();
        long start = System.nanoTime();
        for (int i = 1; i <= trips; i++) {
            ping = i;
            while (pong != i) {
                Thread.onSpinWait();
            }
        }
        System.out.printf("cache line round trip between the two threads: %.0f ns%n",
                (System.nanoTime() - start) / (double) trips);
        echo.join();

        float[] warm = new float[4096];
        for (int i = 0; i < 200_000; i++) {
            write(warm, i);
            sink += read(warm);
        }
        for (int kb : new int[] {128, 512, 1024, 4096}) {
            data = new float[kb * 256];
            int reps = Math.max(400, 2_000_000 / kb);
            long[] other = new long[reps];
            long[] own = new long[reps];
            Thread writer = new Thread(() -> {
                for (int r = 0; r < reps; r++) {
                    while (turn != 1) {
                        Thread.onSpinWait();
                    }
                    write(data, r);
                    turn = 2;
                }
            });
            writer.start();
            for (int r = 0; r < reps; r++) {
                turn = 1;
                while (turn != 2) {
                    Thread.onSpinWait();
                }
                long t = System.nanoTime();
                sink += read(data);
                other[r] = System.nanoTime() - t;
                write(data, r);
                t = System.nanoTime();
                sink += read(data);
                own[r] = System.nanoTime() - t;
            }
            writer.join();
            long a = median(Arrays.copyOfRange(other, reps / 2, reps));
            long b = median(Arrays.copyOfRange(own, reps / 2, reps));
            System.out.printf("%5d KB: read after the other core wrote it %.1f us (%.1f GB/s), after writing it"
                    + " itself %.1f us (%.1f GB/s)%n", kb, a / 1e3, kb * 1024.0 / a, b / 1e3, kb * 1024.0 / b);
        }
        if (sink == 42) {
            System.out.println();
        }
    }

    private static long median(long[] v) {
        Arrays.sort(v);
        return v[v.length / 2];
    }

    private static void write(float[] x, float v) {
        for (int i = 0; i < x.length; i += S.length()) {
            FloatVector.broadcast(S, v).intoArray(x, i);
        }
    }

    private static float read(float[] x) {
        FloatVector a0 = FloatVector.zero(S);
        FloatVector a1 = a0;
        FloatVector a2 = a0;
        FloatVector a3 = a0;
        int l = S.length();
        for (int i = 0; i < x.length; i += 4 * l) {
            a0 = a0.add(FloatVector.fromArray(S, x, i));
            a1 = a1.add(FloatVector.fromArray(S, x, i + l));
            a2 = a2.add(FloatVector.fromArray(S, x, i + 2 * l));
            a3 = a3.add(FloatVector.fromArray(S, x, i + 3 * l));
        }
        return a0.add(a1).add(a2).add(a3).reduceLanes(VectorOperators.ADD);
    }
}

package dev.brisk.data;

import dev.brisk.parallel.Reservation;
import dev.brisk.parallel.ThreadBudget;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * AUTOTUNE for one pass over a pipeline, driven by stalls: how long the consumer (the training loop) waited for
 * its next element.
 *
 * <p>Every {@value #WINDOW_MILLIS} ms of a pass (the wait for the first element is warm-up and not counted) it
 * looks at two figures: the stall share (waiting time over the window) and the cores the pipeline's own threads
 * kept busy (their CPU time over the window). While the consumer waits less than 10% of the time the pipeline is
 * keeping up and nothing changes: it holds no threads of the budget and lives in the compute pool's idle moments.
 * When the consumer waits more than 10%:
 * <ol>
 *   <li>the pipeline reserves from the {@link ThreadBudget} as many threads as it measurably keeps busy (at most
 *       the budget less one), so compute threads plus busy pipeline threads stay within the budget;</li>
 *   <li>the autotuned parallel map whose workers were busy at least 75% of the window gets one more worker (up to
 *       the budget less one); if no map is that busy, the stalls come in bursts and the autotuned prefetch buffer
 *       doubles (up to 64); a busy map already at its limit changes nothing.</li>
 * </ol>
 * When stalls fall under 2% and the pipeline uses clearly fewer cores than it holds, it gives one back. Map
 * parallelism and prefetch depth belong to the stages and the reservation to the pipeline iterated, so the next
 * epoch starts where this one ended.
 */
final class Autotuner implements AutoCloseable {
    static final int WINDOW_MILLIS = 100;
    private static final long WINDOW_NANOS = WINDOW_MILLIS * 1_000_000L;
    private static final double STALL_SHARE = 0.10;
    private static final double CALM_SHARE = 0.02;
    private static final double SATURATED = 0.75;
    static final int MAX_PREFETCH = 64;

    /** The busy time of one parallel map's workers, and the stage's parallelism to grow. */
    static final class MapLoad {
        final AtomicInteger parallelism;
        final AtomicLong busyNanos = new AtomicLong();

        MapLoad(AtomicInteger parallelism) {
            this.parallelism = parallelism;
        }
    }

    private final AtomicInteger reservationHint;
    private final int budget;
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final List<MapLoad> maps = new CopyOnWriteArrayList<>();
    private final List<AtomicInteger> prefetchDepths = new CopyOnWriteArrayList<>();
    private final Map<Thread, Long> lastCpu = new HashMap<>();
    private final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    private Reservation reservation;
    private long windowStart = -1;
    private long waited;
    private volatile double lastStall;
    private volatile double lastCores;

    /** A tuner that starts with the reservation {@code reservationHint} remembers from the last pass. */
    Autotuner(AtomicInteger reservationHint) {
        this.reservationHint = reservationHint;
        this.budget = ThreadBudget.threads();
        reserve(Math.min(reservationHint.get(), budget - 1));
    }

    /** A thread the pipeline started; its CPU time counts as the pipeline's. */
    void register(Thread t) {
        threads.add(t);
    }

    /** An autotuned parallel map. */
    void register(MapLoad load) {
        maps.add(load);
    }

    /** The buffer size of an autotuned prefetch. */
    void registerPrefetch(AtomicInteger depth) {
        prefetchDepths.add(depth);
    }

    /** Called by the consumer after each element with the time it waited for it. */
    void delivered(long waitNanos, long now) {
        if (windowStart < 0) {
            windowStart = now;
            startWindow();
            return;
        }
        waited += waitNanos;
        long wall = now - windowStart;
        if (wall >= WINDOW_NANOS) {
            evaluate(wall);
            windowStart = now;
            waited = 0;
        }
    }

    private void startWindow() {
        cpuNanos();
        for (MapLoad m : maps) {
            m.busyNanos.set(0);
        }
    }

    private void evaluate(long wall) {
        double stall = waited / (double) wall;
        double busyMaps = 0;
        for (MapLoad m : maps) {
            busyMaps += m.busyNanos.get() / (double) wall;
        }
        long cpu = cpuNanos();
        double cores = cpu >= 0 ? cpu / (double) wall : busyMaps;
        lastStall = stall;
        lastCores = cores;
        int held = reservedThreads();
        if (stall > STALL_SHARE) {
            int want = Math.min(budget - 1, (int) Math.round(cores));
            if (want > held) {
                reserve(want);
            }
            grow(wall);
        } else if (stall < CALM_SHARE && held > 0 && cores < held - 0.75) {
            reserve(held - 1);
        }
        for (MapLoad m : maps) {
            m.busyNanos.set(0);
        }
        reservationHint.set(reservedThreads());
    }

    private void grow(long wall) {
        int maxWorkers = Math.max(1, budget - 1);
        MapLoad busiest = null;
        double best = SATURATED;
        boolean saturated = false;
        for (MapLoad m : maps) {
            int p = m.parallelism.get();
            double utilisation = m.busyNanos.get() / ((double) wall * p);
            saturated |= utilisation >= SATURATED;
            if (utilisation >= best && p < maxWorkers) {
                best = utilisation;
                busiest = m;
            }
        }
        if (busiest != null) {
            busiest.parallelism.incrementAndGet();
            return;
        }
        if (saturated) { // the map is as wide as the budget allows: a deeper buffer would not make it faster
            return;
        }
        for (AtomicInteger depth : prefetchDepths) {
            int d = depth.get();
            if (d < MAX_PREFETCH) {
                depth.set(Math.min(MAX_PREFETCH, d * 2));
                return;
            }
        }
    }

    /** CPU nanoseconds the pipeline's threads used since the last call, or -1 where the JVM cannot tell. */
    private long cpuNanos() {
        if (!mx.isThreadCpuTimeSupported() || !mx.isThreadCpuTimeEnabled()) {
            return -1;
        }
        long total = 0;
        for (Thread t : threads) {
            long now = mx.getThreadCpuTime(t.threadId());
            if (now < 0) { // the thread ended
                threads.remove(t);
                lastCpu.remove(t);
                continue;
            }
            Long before = lastCpu.put(t, now);
            total += now - (before == null ? 0 : before);
        }
        return total;
    }

    private void reserve(int n) {
        if (reservation == null) {
            if (n > 0) {
                reservation = ThreadBudget.reserve(n);
            }
        } else {
            reservation.resize(n);
        }
    }

    /** Threads of the budget this pass holds now. */
    int reservedThreads() {
        return reservation == null ? 0 : reservation.threads();
    }

    /** What the tuner sees and has set, for {@link PipelineIterator#stats()}. */
    PipelineStats stats(long elements, long waitNanos) {
        List<Integer> parallelism = new ArrayList<>();
        for (MapLoad m : maps) {
            parallelism.add(m.parallelism.get());
        }
        List<Integer> depths = new ArrayList<>();
        for (AtomicInteger d : prefetchDepths) {
            depths.add(d.get());
        }
        return new PipelineStats(elements, waitNanos / 1e9, reservedThreads(), lastStall, lastCores,
                List.copyOf(parallelism), List.copyOf(depths));
    }

    /** Gives the reserved threads back. */
    @Override
    public void close() {
        if (reservation != null) {
            reservation.close();
        }
    }
}

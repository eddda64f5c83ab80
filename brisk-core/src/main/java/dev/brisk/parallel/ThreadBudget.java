package dev.brisk.parallel;

import dev.brisk.config.Setting;
import dev.brisk.config.Settings;

/**
 * The one thread budget of the process: how many threads compute kernels and the input pipeline share.
 *
 * <p>Resolved in this order: {@link #set(int)} (API), system property {@code brisk.threads}, environment
 * variable {@code BRISK_THREADS}, then {@link Runtime#availableProcessors()} (container-aware), less one on
 * machines of {@link #SPARE_CORE_FROM} or more (see {@link #defaultThreads}). The property and variable are read
 * once (kernels ask for the budget on every call); {@link #reset()} reads them again.
 *
 * <p>Limits: a budget is at least 1 and at most {@link #MAX_PER_PROCESSOR} times the available processors; a larger
 * one is refused, from wherever it comes, since it only creates threads that take turns on the cores (and enough of
 * them exhaust the native threads of the process). A budget above the available processors is allowed with a
 * warning: a parallel region waits for its slowest thread, and threads that share a core make every region wait.
 */
public final class ThreadBudget {
    /** System property that overrides the core count. */
    public static final String PROPERTY = Setting.THREADS.property();
    /** Environment variable that overrides the core count. */
    public static final String ENV = Setting.THREADS.env();

    /**
     * From this many processors up, the default budget leaves one to the JIT compiler, the garbage collector and
     * the OS. With a compute thread on every core, whatever else runs takes a core from a thread in the middle of
     * its chunk and the whole region waits. On many cores one thread fewer trained faster; on few cores the two
     * came out even (BENCHMARKS.md, "Sixteen cores"; docs/benchmark-log.md).
     */
    public static final int SPARE_CORE_FROM = 12;

    /** A budget may be at most this many times the available processors. */
    public static final int MAX_PER_PROCESSOR = 8;

    private static volatile int override;
    /** The last budget warned about, so that each oversized budget is reported once. */
    private static volatile int warnedFor;
    private static volatile Resolved cached;
    private static final java.util.concurrent.atomic.AtomicInteger RESERVED =
            new java.util.concurrent.atomic.AtomicInteger();

    private ThreadBudget() {
    }

    /**
     * Sets the budget for this process (takes effect for the next parallel region).
     *
     * @param threads the number of threads, at least 1
     */
    public static void set(int threads) {
        check(threads, "ThreadBudget.set");
        override = threads;
        cached = null;
    }

    /** Forgets an API override and re-reads the property and variable. */
    public static void reset() {
        override = 0;
        cached = null;
    }

    /**
     * The number of threads Brisk may keep busy.
     *
     * @return the budget: set by {@link #set}, the {@code brisk.threads} setting, or {@link #defaultThreads} of the
     *     machine
     */
    public static int threads() {
        return resolve().threads();
    }

    /**
     * The threads compute kernels may use now: the budget less the threads input pipelines have reserved, and
     * never fewer than one.
     *
     * @return the threads available to compute kernels, at least 1
     */
    public static int computeThreads() {
        return Math.max(1, threads() - RESERVED.get());
    }

    /**
     * Threads reserved by input pipelines at the moment (see {@link #reserve}).
     *
     * @return the number of threads reserved, 0 when no input pipeline is running
     */
    public static int reserved() {
        return RESERVED.get();
    }

    /**
     * Takes {@code n} threads of the budget away from the compute kernels for input-pipeline workers, until the
     * returned reservation is resized or closed; so pipeline workers and compute threads together stay within the
     * budget.
     *
     * @param n the number of threads to reserve, at least 0
     * @return the reservation; close it when the pipeline stops
     */
    public static Reservation reserve(int n) {
        return new Reservation(RESERVED, n);
    }

    /**
     * The budget and where it came from, for the line printed at the start of fit.
     *
     * @return the budget and its source
     */
    public static Resolved resolve() {
        Resolved r = cached;
        if (r == null) {
            r = read();
            cached = r;
        }
        return r;
    }

    /**
     * Checks a budget against the limits in the class comment; {@code origin} names where it came from in the
     * error ("--threads", "system property brisk.threads").
     *
     * @param threads the budget to check
     * @param origin where the budget came from, for the message
     * @throws IllegalArgumentException for a budget below 1 or above {@link #maxThreads()}
     */
    public static void check(int threads, String origin) {
        if (threads < 1) {
            throw new IllegalArgumentException(origin + ": the thread budget must be at least 1, got " + threads);
        }
        int max = maxThreads();
        if (threads > max) {
            throw new IllegalArgumentException(origin + ": a thread budget of " + threads + " is more than "
                    + MAX_PER_PROCESSOR + " times the " + Runtime.getRuntime().availableProcessors()
                    + " available processor(s); use at most " + max + " (the available processors is best)");
        }
    }

    /**
     * The largest budget {@link #check} accepts on this machine.
     *
     * @return {@link #MAX_PER_PROCESSOR} times the available processors
     */
    public static int maxThreads() {
        return MAX_PER_PROCESSOR * Runtime.getRuntime().availableProcessors();
    }

    private static Resolved read() {
        Resolved r = readUnchecked();
        check(r.threads(), r.source());
        int processors = Runtime.getRuntime().availableProcessors();
        if (r.threads() > processors && warnedFor != r.threads()) {
            warnedFor = r.threads();
            System.err.println("brisk: warning: thread budget " + r + " is more than the " + processors
                    + " available processor(s); threads will take turns on the cores and each parallel region waits "
                    + "for the slowest, so training is usually slower than with " + processors);
        }
        return r;
    }

    private static Resolved readUnchecked() {
        if (override > 0) {
            return new Resolved(override, "API");
        }
        int set = Settings.threads();
        if (set > 0) {
            return new Resolved(set, Settings.effective(Setting.THREADS).origin());
        }
        int processors = Runtime.getRuntime().availableProcessors();
        int threads = defaultThreads(processors);
        return new Resolved(threads, threads < processors ? "available processors less one" : "available processors");
    }

    /**
     * The budget nothing overrides on a machine of {@code processors}: all of them, less one from 12 up.
     *
     * @param processors the number of available processors
     * @return the default thread budget
     */
    public static int defaultThreads(int processors) {
        return processors >= SPARE_CORE_FROM ? processors - 1 : Math.max(1, processors);
    }

    /**
     * A thread count and the name of the setting it came from.
     *
     * @param threads the thread budget
     * @param source where it came from, e.g. {@code "brisk.threads"} or {@code "default"}
     */
    public record Resolved(int threads, String source) {
        @Override
        public String toString() {
            return threads + " thread" + (threads == 1 ? "" : "s") + " (" + source + ")";
        }
    }
}

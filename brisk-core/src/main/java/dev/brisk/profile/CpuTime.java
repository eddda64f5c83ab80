package dev.brisk.profile;

import java.lang.management.ManagementFactory;

/**
 * CPU time used by this process. Two clocks, because HotSpot on Linux counts process CPU time in scheduler ticks
 * (10 ms): {@link #processNanos()} is the whole process, right for an epoch; {@link #javaThreadsNanos()} adds up
 * the Java threads (kernels' pool, input pipeline, training loop; not GC or JIT) to the nanosecond, which a
 * profiled step of a few milliseconds needs.
 */
public final class CpuTime {
    private static final com.sun.management.OperatingSystemMXBean OS =
            ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                    ? os : null;
    private static final com.sun.management.ThreadMXBean THREADS =
            ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t
                    && t.isThreadCpuTimeSupported() ? t : null;

    private static final java.lang.management.CompilationMXBean COMPILER = ManagementFactory.getCompilationMXBean();

    private CpuTime() {
    }

    /**
     * Milliseconds the JIT compilers have worked so far, summed over their threads; -1 where the JVM does not keep
     * it. They take cores the training threads would use, so a profile reports their share of its steps.
     *
     * @return the compilers' accumulated time in milliseconds, or -1
     */
    public static long jitMillis() {
        return COMPILER != null && COMPILER.isCompilationTimeMonitoringSupported()
                ? COMPILER.getTotalCompilationTime() : -1;
    }

    /**
     * CPU nanoseconds this process has used so far, all threads; 0 where the JVM cannot tell.
     *
     * @return process CPU time in nanoseconds
     */
    public static long processNanos() {
        return OS == null ? 0 : Math.max(OS.getProcessCpuTime(), 0); // -1 when unsupported
    }

    /**
     * CPU nanoseconds the live Java threads have used so far (threads that ended are no longer counted); the
     * process clock where per-thread CPU time is not available.
     *
     * @return CPU time of the live Java threads in nanoseconds
     */
    public static long javaThreadsNanos() {
        if (THREADS == null || !THREADS.isThreadCpuTimeEnabled()) {
            return processNanos();
        }
        long sum = 0;
        for (long t : THREADS.getThreadCpuTime(THREADS.getAllThreadIds())) {
            sum += Math.max(t, 0); // -1 for a thread that ended meanwhile
        }
        return sum;
    }
}

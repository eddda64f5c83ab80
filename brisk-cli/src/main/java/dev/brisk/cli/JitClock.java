package dev.brisk.cli;

import dev.brisk.callbacks.Callback;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.Map;

/**
 * How long the JVM's JIT compilers worked during the last epoch, beside that epoch's wall time: the measured epoch
 * of a benchmark is early in the run, and on a machine with as many cores as compute threads every millisecond the
 * compilers take is a millisecond the training threads wait for a core (docs/benchmark-log.md, "The JIT's share of
 * the measured epoch").
 */
final class JitClock extends Callback {
    private final CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
    private long epochStartNanos;
    private long epochStartCompileMillis;
    private long lastEpochMillis = -1;
    private long lastEpochCompileMillis = -1;

    @Override
    public void onEpochBegin(int epoch, Map<String, Double> logs) {
        epochStartCompileMillis = compileMillis();
        epochStartNanos = System.nanoTime();
    }

    @Override
    public void onEpochEnd(int epoch, Map<String, Double> logs) {
        lastEpochMillis = (System.nanoTime() - epochStartNanos) / 1_000_000;
        long now = compileMillis();
        lastEpochCompileMillis = now < 0 || epochStartCompileMillis < 0 ? -1 : now - epochStartCompileMillis;
    }

    /** The compilers' total time so far (summed over their threads), or -1 where the JVM does not keep it. */
    private long compileMillis() {
        return compiler != null && compiler.isCompilationTimeMonitoringSupported()
                ? compiler.getTotalCompilationTime() : -1;
    }

    /** {@code jit_ms_last_epoch=... last_epoch_ms=...}: fields of the TIMING line, -1 where unknown. */
    String fields() {
        return String.format(Locale.ROOT, "jit_ms_last_epoch=%d last_epoch_ms=%d", lastEpochCompileMillis,
                lastEpochMillis);
    }
}

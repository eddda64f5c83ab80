package dev.brisk.cli;

import dev.brisk.callbacks.Callback;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.Map;

/**
 * Remembers when the first training step of a run finished, measured from the start of the JVM (so class loading,
 * JIT warm-up, data loading and tracing the plan all count, as a user waits for them).
 */
final class FirstStepClock extends Callback {
    private final long jvmStartMillis = ManagementFactory.getRuntimeMXBean().getStartTime();
    private long firstStepMillis = -1;

    @Override
    public void onTrainBatchEnd(int batch, Map<String, Double> logs) {
        if (firstStepMillis < 0) {
            firstStepMillis = System.currentTimeMillis() - jvmStartMillis;
        }
    }

    /** Milliseconds from JVM start to the end of the first training step, or -1 before it. */
    long firstStepMillis() {
        return firstStepMillis;
    }

    /** Milliseconds from JVM start to now. */
    long sinceJvmStart() {
        return System.currentTimeMillis() - jvmStartMillis;
    }

    /**
     * {@code TIMING jvm_to_first_step_ms=... data_loaded_ms=...}: the start of a second machine-readable line
     * ({@link JitClock#fields} follows).
     */
    static String format(long firstStepMillis, long dataLoadedMillis) {
        return String.format(Locale.ROOT, "TIMING jvm_to_first_step_ms=%d data_loaded_ms=%d", firstStepMillis,
                dataLoadedMillis);
    }
}

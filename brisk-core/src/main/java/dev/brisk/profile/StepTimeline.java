package dev.brisk.profile;

import dev.brisk.backend.KernelTimer;

/**
 * Marks the phases of each training step. It always measures the wait for input (two clock reads a step, no
 * allocation); for the steps a {@link Profiler} covers it also records every phase and hands out the profiler as
 * the step's {@link KernelTimer}. Used by one training thread.
 */
public final class StepTimeline {
    private final Profiler profiler;
    private boolean recording;
    private long stepStart;
    private long mark;
    private long inputWaitNanos;

    /**
     * A timeline that records the steps {@code profiler} covers; null to measure input wait only.
     *
     * @param profiler the profiler, or null
     */
    public StepTimeline(Profiler profiler) {
        this.profiler = profiler;
    }

    /**
     * Starts step {@code globalStep} (counted from 1 over the fit): call before asking for its batch.
     *
     * @param globalStep the step, counted from 1 over the fit
     */
    public void beginStep(int globalStep) {
        recording = profiler != null && profiler.covers(globalStep);
        if (recording) {
            profiler.beginStep(globalStep);
        }
        stepStart = System.nanoTime();
        mark = stepStart;
    }

    /** The batch has arrived: the time since {@link #beginStep} was spent waiting for input. */
    public void batchReady() {
        long now = System.nanoTime();
        inputWaitNanos += now - mark;
        if (recording) {
            profiler.span(Phase.INPUT, mark, now);
        }
        mark = now;
    }

    /**
     * {@code phase} ran from the end of the previous phase until now.
     *
     * @param phase the phase that just ended
     */
    public void phaseEnd(Phase phase) {
        if (recording) {
            long now = System.nanoTime();
            profiler.span(phase, mark, now);
            mark = now;
        }
    }

    /**
     * The timer for this step's kernel calls: the profiler while recording, else null (no timing).
     *
     * @return the kernel timer, or null
     */
    public KernelTimer kernelTimer() {
        return recording ? profiler : null;
    }

    /** Ends the current step; a recorded step goes to the profiler. */
    public void endStep() {
        if (recording) {
            profiler.endStep(stepStart, System.nanoTime());
            recording = false;
        }
    }

    /**
     * The input wait measured since the last call, in nanoseconds; starts counting afresh.
     *
     * @return nanoseconds spent waiting for input since the previous call
     */
    public long takeInputWaitNanos() {
        long w = inputWaitNanos;
        inputWaitNanos = 0;
        return w;
    }
}

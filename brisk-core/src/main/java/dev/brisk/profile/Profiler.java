package dev.brisk.profile;

import dev.brisk.exec.KernelTimer;
import dev.brisk.ops.Node;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Records the profiled steps of a fit: each step's phases, every kernel call with its op, and the process CPU time
 * the steps used. {@link StepTimeline} drives it; {@link #finish()} turns the record into a {@link Profile}.
 */
public final class Profiler implements KernelTimer {
    private final ProfileWindow window;
    private final int threads;
    private final String mode;
    private final List<Span> spans = new ArrayList<>();
    private final List<Integer> steps = new ArrayList<>();
    private final Map<Node, OpInfo> ops = new IdentityHashMap<>(); // compiled plans reuse their nodes every step
    private final List<Span> open = new ArrayList<>();
    private int step;
    private long cpuStart;
    private long cpuNanos;
    private long threadId;

    /**
     * @param threads the thread budget, for CPU utilisation
     * @param mode    "compiled" or "eager", for the summary
     */
    public Profiler(ProfileWindow window, int threads, String mode) {
        this.window = window;
        this.threads = threads;
        this.mode = mode;
    }

    public ProfileWindow window() {
        return window;
    }

    boolean covers(int globalStep) {
        return window.covers(globalStep);
    }

    /**
     * Starts (or, for a step whose batch never came, restarts) recording step {@code globalStep}; call before the
     * step's clock starts, as reading the CPU time takes a while.
     */
    void beginStep(int globalStep) {
        open.clear();
        step = globalStep;
        threadId = Thread.currentThread().threadId();
        cpuStart = CpuTime.javaThreadsNanos();
    }

    void span(Phase phase, long startNanos, long endNanos) {
        open.add(new Span(phase.spanName(), phase.category(), step, startNanos, endNanos, null));
    }

    @Override
    public void record(Node node, long startNanos, long endNanos) {
        OpInfo info = ops.computeIfAbsent(node, OpInfo::of);
        open.add(new Span(info.op(), Span.Category.KERNEL, step, startNanos, endNanos, info));
    }

    /** Ends the step that ran from {@code startNanos} to {@code endNanos}; call after the step's clock stopped. */
    void endStep(long startNanos, long endNanos) {
        cpuNanos += Math.max(0, CpuTime.javaThreadsNanos() - cpuStart);
        spans.add(new Span("step " + step, Span.Category.STEP, step, startNanos, endNanos, null));
        spans.addAll(open);
        open.clear();
        steps.add(step);
    }

    /** What was recorded; steps that never ended are left out. */
    public Profile finish() {
        return new Profile(spans, steps, cpuNanos, threads, mode, ProcessHandle.current().pid(), threadId);
    }
}

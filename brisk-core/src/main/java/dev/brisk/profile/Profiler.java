package dev.brisk.profile;

import dev.brisk.backend.KernelTimer;
import dev.brisk.ops.Node;
import java.util.ArrayList;
import java.util.List;

/**
 * Records the profiled steps of a fit: each step's phases, every kernel call with its op, and the CPU time the
 * steps used. {@link StepTimeline} drives it; {@link #finish()} turns the record into a {@link Profile}.
 */
public final class Profiler implements KernelTimer {
    private final ProfileWindow window;
    private final int threads;
    private final String mode;
    private final List<Span> spans = new ArrayList<>();
    private final List<Integer> steps = new ArrayList<>();
    private final List<Span> phases = new ArrayList<>();
    private final List<KernelCall> kernels = new ArrayList<>();
    private int step;
    private long cpuStart;
    private long cpuNanos;
    private long jitStart;
    /** The JIT compilers' milliseconds during the recorded steps, or -1 once unknown. */
    private long jitMillis;
    private long threadId;

    /** A kernel call as timed; described ({@link OpInfo}) only after the step, outside its measured time. */
    private record KernelCall(Node node, long startNanos, long endNanos, long thread) {
    }

    /**
     * A profiler that records the steps of {@code window}; the training loop feeds it through a {@link StepTimeline}.
     *
     * @param window  the steps to record, counted from 1 over the fit
     * @param threads the thread budget, for CPU utilisation
     * @param mode    "compiled" or "eager", for the summary
     */
    public Profiler(ProfileWindow window, int threads, String mode) {
        this.window = window;
        this.threads = threads;
        this.mode = mode;
        // Load and initialise what the timed path uses now; otherwise the first profiled step pays for it, spread
        // over its phases and between its kernels.
        span(Phase.INPUT, 0, 0);
        record(null, 0, 0);
        phases.clear();
        kernels.clear();
    }

    boolean covers(int globalStep) {
        return window.covers(globalStep);
    }

    /**
     * Starts (or, for a step whose batch never came, restarts) recording step {@code globalStep}; call before the
     * step's clock starts, as reading the CPU time takes a while.
     */
    void beginStep(int globalStep) {
        phases.clear();
        kernels.clear();
        step = globalStep;
        threadId = Thread.currentThread().threadId();
        cpuStart = CpuTime.javaThreadsNanos();
        jitStart = CpuTime.jitMillis();
    }

    void span(Phase phase, long startNanos, long endNanos) {
        phases.add(new Span(phase.spanName(), phase.category(), step, startNanos, endNanos, null));
    }

    @Override
    public void record(Node node, long startNanos, long endNanos) {
        kernels.add(new KernelCall(node, startNanos, endNanos, 0));
    }

    @Override
    public void record(Node node, long startNanos, long endNanos, long thread) {
        kernels.add(new KernelCall(node, startNanos, endNanos, thread == threadId ? 0 : thread));
    }

    /** Ends the step that ran from {@code startNanos} to {@code endNanos}; call after the step's clock stopped. */
    void endStep(long startNanos, long endNanos) {
        cpuNanos += Math.max(0, CpuTime.javaThreadsNanos() - cpuStart);
        long jitNow = CpuTime.jitMillis();
        jitMillis = jitMillis < 0 || jitStart < 0 || jitNow < 0 ? -1 : jitMillis + Math.max(0, jitNow - jitStart);
        spans.add(new Span("step " + step, Span.Category.STEP, step, startNanos, endNanos, null));
        spans.addAll(phases);
        for (KernelCall k : kernels) {
            OpInfo info = OpInfo.of(k.node());
            spans.add(new Span(info.op(), Span.Category.KERNEL, step, k.startNanos(), k.endNanos(), info,
                    k.thread()));
        }
        phases.clear();
        kernels.clear(); // lets go of eager steps' nodes, and the tensors they hold
        steps.add(step);
    }

    /**
     * What was recorded; steps that never ended are left out.
     *
     * @return the profile of the recorded steps
     */
    public Profile finish() {
        return new Profile(spans, steps, cpuNanos, jitMillis, threads, mode, ProcessHandle.current().pid(), threadId);
    }
}

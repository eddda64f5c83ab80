package dev.brisk.profile;

import dev.brisk.io.AtomicFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The profile of a few training steps: every span (steps, their phases, kernel calls), the process CPU time they
 * used and the thread budget, with the figures derived from them. {@link #summary()} is the text report,
 * {@link #writeChromeTrace} the trace for Perfetto.
 */
public final class Profile {
    private final List<Span> spans;
    private final List<Integer> steps;
    private final long cpuNanos;
    private final int threads;
    private final String mode;
    private final long pid;
    private final long tid;

    Profile(List<Span> spans, List<Integer> steps, long cpuNanos, int threads, String mode, long pid, long tid) {
        List<Span> sorted = new ArrayList<>(spans);
        // Parents first: by start, then the longer span first, so viewers nest spans that start together.
        sorted.sort(Comparator.comparingLong(Span::startNanos).thenComparing(Comparator.comparingLong(Span::endNanos)
                .reversed()));
        this.spans = List.copyOf(sorted);
        this.steps = List.copyOf(steps);
        this.cpuNanos = cpuNanos;
        this.threads = threads;
        this.mode = mode;
        this.pid = pid;
        this.tid = tid;
    }

    /** All spans, ordered by start time (a parent before the spans it contains). */
    public List<Span> spans() {
        return spans;
    }

    /** The profiled steps, counted from 1 over the fit. */
    public List<Integer> steps() {
        return steps;
    }

    public boolean isEmpty() {
        return steps.isEmpty();
    }

    /** "compiled" or "eager". */
    public String mode() {
        return mode;
    }

    public int threads() {
        return threads;
    }

    long pid() {
        return pid;
    }

    long tid() {
        return tid;
    }

    /** Wall time of the profiled steps together. */
    public long wallNanos() {
        return total(Span.Category.STEP);
    }

    /** Each profiled step's wall time, in step order. */
    public long[] stepNanos() {
        return spans.stream().filter(s -> s.category() == Span.Category.STEP).mapToLong(Span::nanos).toArray();
    }

    /** CPU time of the Java threads during the profiled steps ({@link CpuTime#javaThreadsNanos()}). */
    public long cpuNanos() {
        return cpuNanos;
    }

    /** Time of the spans of one category, all steps together. */
    public long total(Span.Category category) {
        long sum = 0;
        for (Span s : spans) {
            if (s.category() == category) {
                sum += s.nanos();
            }
        }
        return sum;
    }

    /**
     * Wall time during which at least one kernel ran: the kernels' total when they ran one at a time, less when
     * some ran side by side on several threads.
     */
    public long kernelWallNanos() {
        long sum = 0;
        long end = Long.MIN_VALUE;
        for (Span s : spans) { // ordered by start
            if (s.category() != Span.Category.KERNEL) {
                continue;
            }
            if (s.startNanos() >= end) {
                sum += s.nanos();
                end = s.endNanos();
            } else if (s.endNanos() > end) {
                sum += s.endNanos() - end;
                end = s.endNanos();
            }
        }
        return sum;
    }

    /** Estimated FLOPs of all kernel calls. */
    public long flops() {
        long sum = 0;
        for (Span s : spans) {
            if (s.op() != null) {
                sum += s.op().flops();
            }
        }
        return sum;
    }

    /** CPU time / (wall time x threads): 1.0 means every thread of the budget was busy. */
    public double cpuUtilisation() {
        return share(cpuNanos, wallNanos() * (long) threads);
    }

    /** The share of step time spent waiting for input. */
    public double inputWaitShare() {
        return share(total(Span.Category.INPUT), wallNanos());
    }

    static double share(long part, long whole) {
        return whole > 0 ? (double) part / whole : 0;
    }

    /** The text report: where step time went, CPU utilisation, GFLOP/s, and the ops that took longest. */
    public String summary() {
        return ProfileSummary.render(this, ProfileSummary.TOP_OPS);
    }

    /** Writes the spans as Chrome-trace JSON (open it in https://ui.perfetto.dev or chrome://tracing). */
    public void writeChromeTrace(Path file) throws IOException {
        AtomicFiles.write(file, out -> ChromeTrace.write(this, out));
    }
}

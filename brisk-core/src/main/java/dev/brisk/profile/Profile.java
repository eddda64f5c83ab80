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
    private final long jitMillis;
    private final int threads;
    private final String mode;
    private final long pid;
    private final long tid;

    Profile(List<Span> spans, List<Integer> steps, long cpuNanos, long jitMillis, int threads, String mode, long pid,
            long tid) {
        List<Span> sorted = new ArrayList<>(spans);
        // Parents first: by start, then the longer span first, so viewers nest spans that start together.
        sorted.sort(Comparator.comparingLong(Span::startNanos).thenComparing(Comparator.comparingLong(Span::endNanos)
                .reversed()));
        this.spans = List.copyOf(sorted);
        this.steps = List.copyOf(steps);
        this.cpuNanos = cpuNanos;
        this.jitMillis = jitMillis;
        this.threads = threads;
        this.mode = mode;
        this.pid = pid;
        this.tid = tid;
    }

    /**
     * All spans, ordered by start time (a parent before the spans it contains).
     *
     * @return the spans; an unmodifiable list
     */
    public List<Span> spans() {
        return spans;
    }

    /**
     * The profiled steps, counted from 1 over the fit.
     *
     * @return the step numbers, ascending
     */
    public List<Integer> steps() {
        return steps;
    }

    /**
     * Whether nothing was recorded (the fit ended before the window).
     *
     * @return true if no step was profiled
     */
    public boolean isEmpty() {
        return steps.isEmpty();
    }

    /**
     * "compiled" or "eager".
     *
     * @return the execution mode of the profiled fit
     */
    public String mode() {
        return mode;
    }

    /**
     * The thread budget during the profiled steps, the denominator of {@link #cpuUtilisation()}.
     *
     * @return the number of threads
     */
    public int threads() {
        return threads;
    }

    long pid() {
        return pid;
    }

    long tid() {
        return tid;
    }

    /**
     * Wall time of the profiled steps together.
     *
     * @return the sum of the profiled steps' wall times, in nanoseconds
     */
    public long wallNanos() {
        return total(Span.Category.STEP);
    }

    /**
     * Each profiled step's wall time, in step order.
     *
     * @return one wall time per profiled step, in nanoseconds
     */
    public long[] stepNanos() {
        return spans.stream().filter(s -> s.category() == Span.Category.STEP).mapToLong(Span::nanos).toArray();
    }

    /**
     * The JIT compilers' time during the profiled steps ({@link CpuTime#jitMillis()}), summed over their threads.
     *
     * @return milliseconds, or -1 where the JVM does not keep the compilers' time
     */
    public long jitMillis() {
        return jitMillis;
    }

    /**
     * CPU time of the Java threads during the profiled steps ({@link CpuTime#javaThreadsNanos()}).
     *
     * @return CPU time in nanoseconds
     */
    public long cpuNanos() {
        return cpuNanos;
    }

    /**
     * Time of the spans of one category, all steps together.
     *
     * @param category the category to add up
     * @return the total time in nanoseconds
     */
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
     *
     * @return kernel wall time in nanoseconds
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

    /**
     * Estimated FLOPs of all kernel calls.
     *
     * @return the sum of the kernel calls' estimated FLOPs
     */
    public long flops() {
        long sum = 0;
        for (Span s : spans) {
            if (s.op() != null) {
                sum += s.op().flops();
            }
        }
        return sum;
    }

    /**
     * CPU time / (wall time x threads): 1.0 means every thread of the budget was busy.
     *
     * @return the utilisation, from 0 to 1 (slightly above 1 where other JVM threads worked too)
     */
    public double cpuUtilisation() {
        return share(cpuNanos, wallNanos() * (long) threads);
    }

    /**
     * The share of step time spent waiting for input.
     *
     * @return the input wait's share of the profiled steps' wall time, from 0 to 1
     */
    public double inputWaitShare() {
        return share(total(Span.Category.INPUT), wallNanos());
    }

    static double share(long part, long whole) {
        return whole > 0 ? (double) part / whole : 0;
    }

    /**
     * The text report: where step time went, CPU utilisation, GFLOP/s, and the ops that took longest.
     *
     * @return the report, several lines of text
     */
    public String summary() {
        return ProfileSummary.render(this, ProfileSummary.TOP_OPS);
    }

    /**
     * Writes the spans as Chrome-trace JSON (open it in https://ui.perfetto.dev or chrome://tracing).
     *
     * @param file the file to write, e.g. {@code trace.json}
     * @throws IOException if the file cannot be written
     */
    public void writeChromeTrace(Path file) throws IOException {
        AtomicFiles.write(file, out -> ChromeTrace.write(this, out));
    }
}

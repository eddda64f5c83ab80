package dev.brisk.profile;

import java.util.List;
import java.util.Locale;

/** Renders a {@link Profile} as text: where step time went, CPU utilisation, GFLOP/s, top ops and op types. */
final class ProfileSummary {
    static final int TOP_OPS = 15;
    /** Steps beyond 1.5x the median taking this share of step time get a line on what to do. */
    static final double SLOW_STEPS_WORTH_A_HINT = 0.05;
    /** The JIT's share of one core over the profiled steps from which the summary says they profiled warm-up. */
    static final double JIT_WORTH_A_HINT = 0.1;
    /** Budgets below this many threads get no such line. */
    static final int HINT_MIN_THREADS = 4;

    private ProfileSummary() {
    }

    static String render(Profile p, int topOps) {
        if (p.isEmpty()) {
            return "Profile: no training step was profiled\n";
        }
        StringBuilder sb = new StringBuilder();
        overview(sb, p);
        topOps(sb, p, topOps);
        opTypes(sb, p);
        return sb.toString();
    }

    private static void overview(StringBuilder sb, Profile p) {
        int n = p.steps().size();
        long wall = p.wallNanos();
        // Kernels that ran side by side count once: the phases below tile the step's wall time.
        long kernels = p.kernelWallNanos();
        long input = p.total(Span.Category.INPUT);
        sb.append(String.format(Locale.ROOT, "Profile of %d %s training step%s (%s), thread budget %d:%n", n,
                p.mode(), n == 1 ? "" : "s", steps(p.steps()), p.threads()));
        sb.append(String.format(Locale.ROOT, "  step time        %9.3f ms per step, of which%n", ms(wall) / n));
        // The phases tile each step, so these shares add up to 100%.
        part(sb, "kernels", kernels, wall, n);
        part(sb, "step overhead", p.total(Span.Category.COMPUTE) - kernels, wall, n);
        part(sb, "input wait", input, wall, n);
        part(sb, "metrics", named(p, Phase.METRICS), wall, n);
        part(sb, "callbacks", named(p, Phase.CALLBACKS), wall, n);
        sb.append(String.format(Locale.ROOT, "  CPU utilisation  %.2f = CPU %.3f ms (Java threads) / (wall %.3f ms x %d"
                + " thread%s), per step%n", p.cpuUtilisation(), ms(p.cpuNanos()) / n, ms(wall) / n, p.threads(),
                p.threads() == 1 ? "" : "s"));
        sb.append(String.format(Locale.ROOT, "  input wait       %s of step time%n", pct(input, wall)));
        slowSteps(sb, p);
        jit(sb, p);
        sb.append(String.format(Locale.ROOT, "  achieved         %.2f GFLOP/s in kernels, %.2f GFLOP/s over the whole"
                + " step (%.4f GFLOP per step)%n", gflops(p.flops(), kernels), gflops(p.flops(), wall),
                p.flops() / 1e9 / n));
    }

    /**
     * The JIT compilers' time during the profiled steps, as a share of one core over the steps' wall time; where it is
     * {@link #JIT_WORTH_A_HINT} or more the steps shared cores with the compilers (on a machine with a thread per core,
     * every millisecond they take is one the kernels wait for), so the profile is of warm-up and later steps say more.
     */
    private static void jit(StringBuilder sb, Profile p) {
        if (p.jitMillis() < 0) {
            return;
        }
        double share = p.jitMillis() / (p.wallNanos() / 1e6);
        sb.append(String.format(Locale.ROOT, "  JIT compilers    %d ms during the profiled steps, %.0f%% of one core%n",
                p.jitMillis(), 100 * share));
        if (share >= JIT_WORTH_A_HINT) {
            sb.append("                   still warming up: these steps shared cores with the compilers; profile"
                    + " later steps (--profile-steps) of a longer run\n");
        }
    }

    /**
     * Steps far slower than the median; where they cost a share of the time worth acting on and the budget has a
     * thread on every core of a larger machine, what usually causes them and what to try.
     */
    private static void slowSteps(StringBuilder sb, Profile p) {
        long[] steps = p.stepNanos();
        double share = StepStalls.share(steps);
        sb.append(String.format(Locale.ROOT, "  slow steps       %d of %d over %.1fx the median step (%.3f ms),"
                + " %.1f%% of step time beyond it%n", StepStalls.count(steps), steps.length, StepStalls.FACTOR,
                StepStalls.median(steps) / 1e6, 100 * share));
        // On a few cores a thread fewer costs more than the stalls: on two, half the compute.
        if (share >= SLOW_STEPS_WORTH_A_HINT && p.threads() >= HINT_MIN_THREADS
                && p.threads() >= Runtime.getRuntime().availableProcessors()) {
            sb.append(String.format(Locale.ROOT, "                   with a thread on every core, one that loses its"
                    + " core (to the JIT, the collector or another%n                   process) holds up the step:"
                    + " one thread fewer (--threads %d) may train faster%n", p.threads() - 1));
        }
    }

    private static void topOps(StringBuilder sb, Profile p, int topOps) {
        int n = p.steps().size();
        long wall = p.wallNanos();
        List<OpTotals> ops = OpTotals.byOp(p);
        long calls = ops.stream().mapToLong(OpTotals::calls).sum();
        sb.append(String.format(Locale.ROOT, "Top ops by total time (%% of step time; %d kernel calls per step):%n",
                calls / n));
        sb.append(String.format(Locale.ROOT, "  %3s %10s %7s %6s %8s  %-22s %-18s %s%n", "#", "total ms", "%",
                "calls", "GFLOP/s", "op", "layer", "shapes"));
        for (int i = 0; i < Math.min(topOps, ops.size()); i++) {
            OpTotals t = ops.get(i);
            sb.append(String.format(Locale.ROOT, "  %3d %10.3f %7s %6d %8.2f  %-22s %-18s %s%n", i + 1, ms(t.nanos()),
                    pct(t.nanos(), wall), t.calls(), t.gflopsPerSecond(), t.example().op(), t.example().layer(),
                    t.example().shapes()));
        }
        if (ops.size() > topOps) {
            sb.append(String.format(Locale.ROOT, "  ... %d more ops%n", ops.size() - topOps));
        }
    }

    private static void opTypes(StringBuilder sb, Profile p) {
        long wall = p.wallNanos();
        sb.append("By op type:\n");
        sb.append(String.format(Locale.ROOT, "  %10s %7s %6s %9s %8s  %s%n", "total ms", "%", "calls", "GFLOP",
                "GFLOP/s", "op type"));
        for (OpTotals t : OpTotals.byType(p)) {
            sb.append(String.format(Locale.ROOT, "  %10.3f %7s %6d %9.4f %8.2f  %s%n", ms(t.nanos()),
                    pct(t.nanos(), wall), t.calls(), t.flops() / 1e9, t.gflopsPerSecond(), t.key()));
        }
    }

    private static void part(StringBuilder sb, String what, long nanos, long wall, int steps) {
        sb.append(String.format(Locale.ROOT, "    %-14s %9.3f ms %7s%n", what, ms(nanos) / steps, pct(nanos, wall)));
    }

    private static long named(Profile p, Phase phase) {
        long sum = 0;
        for (Span s : p.spans()) {
            if (s.op() == null && s.category() == phase.category() && s.name().equals(phase.spanName())) {
                sum += s.nanos();
            }
        }
        return sum;
    }

    private static String steps(List<Integer> steps) {
        int first = steps.get(0);
        int last = steps.get(steps.size() - 1);
        if (last - first + 1 == steps.size()) {
            return first == last ? "step " + first : "steps " + first + "-" + last;
        }
        return "steps " + steps;
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    private static double gflops(long flops, long nanos) {
        return nanos > 0 ? (double) flops / nanos : 0;
    }

    private static String pct(long part, long whole) {
        return String.format(Locale.ROOT, "%.1f%%", 100 * Profile.share(part, whole));
    }
}

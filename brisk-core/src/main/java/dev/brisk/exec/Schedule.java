package dev.brisk.exec;

import dev.brisk.backend.KernelTimer;
import dev.brisk.config.Setting;
import dev.brisk.config.Settings;
import dev.brisk.ops.Node;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * The order a plan runs its instructions in, with independent ones grouped to run side by side.
 *
 * <p>Every kernel splits its own work over the pool, but small ones scale badly (a 128-row gemm gains 1.3x from a
 * second thread) and each pays a fork and join. Two independent instructions of similar size, each on one thread,
 * can finish sooner: in a Dense layer's backward pass the weight gradient and the input gradient both read the
 * output gradient but not each other. Built greedily in plan order: the first instruction not yet placed is
 * paired with the later instruction that gains most beside it (one that may move up to it: independent of every
 * instruction it would pass), the group is topped up with instructions that fit in the shorter lane, and it is
 * kept only when the cost model says it may beat running its members one after the other, each split. Each group
 * then times both ways on the first steps and keeps the faster ({@link ConcurrentGroup}). Only instructions whose
 * kernels give the same bits inline as split take part ({@link CostModel#runsAlone}), so a schedule never changes
 * the numbers.
 *
 * <p>System property {@code brisk.concurrent}, read when a plan is compiled: {@code false} (the default) runs every
 * instruction on its own, {@code true} groups and lets each group's trial decide, {@code always} runs every group
 * side by side (for tests and measurements).
 */
final class Schedule {
    /** System property: group independent instructions ({@code true}) or run them one by one ({@code false}). */
    static final String PROPERTY = Setting.CONCURRENT.property();
    /**
     * How much faster a long gemm or convolution runs split over two threads than on one (W1 and W2 profiles:
     * 1.7-1.9x). Each thread then works on half of the operands, so two such kernels side by side, each with
     * all of its operands, lose about what they save (BENCHMARKS.md, "Independent instructions side by side").
     */
    private static final double COMPUTE_SPLIT_SPEEDUP = 1.9;
    /** The same for memory-bound kernels: the optimizer steps gain 1.45-1.55x (W1 profiles). */
    private static final double MEMORY_SPLIT_SPEEDUP = 1.45;
    /**
     * Splitting a kernel of this length gains half of its full speedup: a 60 us gemm gains nothing from a second
     * thread, a 1 ms one 1.7x (W1 profiles).
     */
    private static final double HALF_GAIN_NANOS = 150_000;
    /** The fork and join of one parallel region. */
    private static final double REGION_NANOS = 3_000;
    /** Kernels shorter than this mostly stay on one thread anyway. */
    private static final double SERIAL_NANOS = 5_000;
    /** Instructions side by side share caches and memory bandwidth. */
    private static final double CONTENTION = 1.1;
    /** The smallest instruction worth starting a group for. */
    private static final double MIN_NANOS = 10_000;
    /** How far ahead of the first unplaced instruction partners are looked for. */
    private static final int WINDOW = 64;

    private final Node[] nodes;
    /** Per step: an instruction of the plan, or a {@link ConcurrentGroup}. */
    private final Instruction[] steps;
    /** Per step: the index of its instruction, or -1 for a group. */
    private final int[] single;
    private final int groups;

    private Schedule(Node[] nodes, Instruction[] steps, int[] single, int groups) {
        this.nodes = nodes;
        this.steps = steps;
        this.single = single;
        this.groups = groups;
    }

    /** How {@code brisk.concurrent} says groups run, or null when plans should not group instructions. */
    static ConcurrentGroup.Mode mode() {
        return switch (Settings.concurrent()) {
            case "true" -> ConcurrentGroup.Mode.TRIAL;
            case "always" -> ConcurrentGroup.Mode.CONCURRENT;
            default -> null;
        };
    }

    /** Every instruction on its own, in plan order. */
    static Schedule sequential(List<Instruction> code, List<Node> nodes) {
        Instruction[] c = code.toArray(new Instruction[0]);
        int[] single = new int[c.length];
        Arrays.setAll(single, i -> i);
        return new Schedule(nodes.toArray(new Node[0]), c, single, 0);
    }

    /**
     * Groups independent instructions for {@code threads} lanes where the cost model says it may pay. Only a
     * budget of two threads is grouped: the cost model's speedups were measured there, and with more threads a
     * pair would leave the others idle where a split kernel uses them all.
     */
    static Schedule build(List<Instruction> code, List<Node> nodes, Supplier<DependencyGraph> dependencies,
                          int threads) {
        ConcurrentGroup.Mode mode = mode();
        if (threads != 2 || mode == null) {
            return sequential(code, nodes);
        }
        DependencyGraph deps = dependencies.get();
        int n = code.size();
        boolean[] eligible = new boolean[n];
        double[] cost = new double[n];
        double[] split = new double[n];
        for (int i = 0; i < n; i++) {
            Node node = nodes.get(i);
            eligible[i] = CostModel.runsAlone(node);
            cost[i] = CostModel.oneThreadNanos(node);
            split[i] = splitNanos(cost[i], CostModel.computeBound(node));
        }
        Instruction[] c = code.toArray(new Instruction[0]);
        Node[] nd = nodes.toArray(new Node[0]);
        List<Instruction> steps = new ArrayList<>();
        List<Integer> singles = new ArrayList<>();
        List<Integer> remaining = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            remaining.add(i);
        }
        int groups = 0;
        while (!remaining.isEmpty()) {
            int head = remaining.remove(0);
            List<List<Integer>> lanes = eligible[head] && cost[head] >= MIN_NANOS
                    ? group(head, remaining, deps, eligible, cost, split, threads) : null;
            if (lanes == null) {
                steps.add(c[head]);
                singles.add(head);
                continue;
            }
            int[][] laneArrays = new int[lanes.size()][];
            List<Integer> members = new ArrayList<>();
            for (int l = 0; l < laneArrays.length; l++) {
                laneArrays[l] = lanes.get(l).stream().mapToInt(Integer::intValue).toArray();
                members.addAll(lanes.get(l));
            }
            remaining.removeAll(members);
            int[] sorted = members.stream().mapToInt(Integer::intValue).sorted().toArray();
            steps.add(new ConcurrentGroup(c, nd, laneArrays, sorted, mode));
            singles.add(-1);
            groups++;
        }
        return new Schedule(nd, steps.toArray(new Instruction[0]),
                singles.stream().mapToInt(Integer::intValue).toArray(), groups);
    }

    /**
     * The lanes of a group that starts with {@code head}, or null when no partner gains. {@code remaining} holds
     * the unplaced instructions after {@code head}, in plan order.
     */
    private static List<List<Integer>> group(int head, List<Integer> remaining, DependencyGraph deps,
                                             boolean[] eligible, double[] cost, double[] split, int threads) {
        List<Integer> members = new ArrayList<>(List.of(head));
        double[] loads = new double[threads];
        List<List<Integer>> lanes = new ArrayList<>();
        for (int l = 0; l < threads; l++) {
            lanes.add(new ArrayList<>());
        }
        lanes.get(0).add(head);
        loads[0] = cost[head];
        // Time the members would take one after the other, each split; a group must beat it.
        double alone = split[head];
        double gain = 0;
        boolean paired = false;
        int limit = Math.min(remaining.size(), WINDOW);
        while (true) {
            int best = -1;
            double bestGain = gain;
            for (int k = 0; k < limit; k++) {
                int cand = remaining.get(k);
                if (members.contains(cand) || !eligible[cand] || (!paired && cost[cand] < MIN_NANOS)
                        || !movable(cand, k, members, remaining, deps)) {
                    continue;
                }
                double g = alone + split[cand] - groupNanos(with(loads, cost[cand]));
                if (g > bestGain) {
                    bestGain = g;
                    best = cand;
                }
            }
            if (best < 0) {
                break;
            }
            int lane = lightest(loads);
            lanes.get(lane).add(best);
            loads[lane] += cost[best];
            members.add(best);
            alone += split[best];
            gain = bestGain;
            paired = true;
        }
        if (!paired) {
            return null;
        }
        lanes.removeIf(List::isEmpty);
        return lanes.size() < 2 ? null : lanes;
    }

    /** True when {@code cand} (at position {@code k} of {@code remaining}) may join the group of {@code members}. */
    private static boolean movable(int cand, int k, List<Integer> members, List<Integer> remaining,
                                   DependencyGraph deps) {
        for (int m : members) {
            if (!deps.independent(m, cand)) {
                return false;
            }
        }
        for (int j = 0; j < k; j++) {
            int passed = remaining.get(j);
            if (!members.contains(passed) && !deps.independent(passed, cand)) {
                return false;
            }
        }
        return true;
    }

    /** Lane loads after adding {@code nanos} to the lightest lane. */
    private static double[] with(double[] loads, double nanos) {
        double[] next = loads.clone();
        next[lightest(next)] += nanos;
        return next;
    }

    private static int lightest(double[] loads) {
        int best = 0;
        for (int l = 1; l < loads.length; l++) {
            if (loads[l] < loads[best]) {
                best = l;
            }
        }
        return best;
    }

    /** A group's time: its longest lane, slowed by sharing the machine, plus one region. */
    private static double groupNanos(double[] loads) {
        double max = 0;
        for (double l : loads) {
            max = Math.max(max, l);
        }
        return max * CONTENTION + REGION_NANOS;
    }

    /** An instruction's time when it runs alone, split over the pool. */
    private static double splitNanos(double oneThread, boolean computeBound) {
        if (oneThread < SERIAL_NANOS) {
            return oneThread;
        }
        double full = computeBound ? COMPUTE_SPLIT_SPEEDUP : MEMORY_SPLIT_SPEEDUP;
        double speedup = (full * oneThread + HALF_GAIN_NANOS) / (oneThread + HALF_GAIN_NANOS);
        return oneThread / speedup + REGION_NANOS;
    }

    /** Number of groups that run side by side, or are still timing whether to. */
    int concurrentGroups() {
        int count = 0;
        for (Instruction s : steps) {
            if (s instanceof ConcurrentGroup g && g.mode() != ConcurrentGroup.Mode.SEQUENTIAL) {
                count++;
            }
        }
        return count;
    }

    /** One line per group: its members by lane, how it runs, and what its trial measured. */
    String describe() {
        StringBuilder sb = new StringBuilder();
        for (Instruction s : steps) {
            if (s instanceof ConcurrentGroup g) {
                sb.append(g.describe()).append('\n');
            }
        }
        return sb.toString();
    }

    /** Number of groups the planner formed, whatever their trials decided. */
    int groupCount() {
        return groups;
    }

    /** Runs every step once. */
    void run() {
        Instruction[] s = steps;
        for (int i = 0; i < s.length; i++) {
            try {
                s[i].run();
            } catch (RuntimeException e) {
                throw failed(i, e);
            }
        }
    }

    /** Runs every step once, telling {@code timer} when each instruction started and ended, and on which thread. */
    void run(KernelTimer timer) {
        Instruction[] s = steps;
        for (int i = 0; i < s.length; i++) {
            try {
                if (single[i] >= 0) {
                    long start = System.nanoTime();
                    s[i].run();
                    timer.record(nodes[single[i]], start, System.nanoTime());
                } else {
                    ((ConcurrentGroup) s[i]).run(timer);
                }
            } catch (RuntimeException e) {
                throw failed(i, e);
            }
        }
    }

    private ExecutionException failed(int step, RuntimeException e) {
        int instruction = single[step] >= 0 ? single[step] : ((ConcurrentGroup) steps[step]).failed();
        if (instruction < 0) {
            instruction = ((ConcurrentGroup) steps[step]).members()[0];
        }
        Node n = nodes[instruction];
        String where = n.scope().isEmpty() ? n.op().toString() : "layer '" + n.scope() + "' (" + n.op() + ")";
        return new ExecutionException("step failed in " + where + ": " + e.getMessage(), e);
    }
}

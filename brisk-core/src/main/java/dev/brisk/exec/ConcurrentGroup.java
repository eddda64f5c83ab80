package dev.brisk.exec;

import dev.brisk.backend.KernelTimer;
import dev.brisk.ops.Node;
import dev.brisk.parallel.Parallel;
import dev.brisk.parallel.RangeBody;
import java.util.Locale;

/**
 * Independent instructions run side by side: one parallel region whose chunks are lanes, each lane running its
 * instructions in turn on one thread. Kernels called inside a region run inline, so every instruction stays on
 * its lane's thread. Built once per plan; running it allocates nothing.
 *
 * <p>Whether side by side is faster than one instruction after the other, each split over the pool, depends on
 * the machine more than a cost model can tell (how well each kernel splits, how much two kernels slow each other
 * down). Unless told otherwise, a group therefore measures both: after {@link #WARM_UP} runs (the JIT has
 * compiled the kernels by then) it alternates between the two ways for {@link #TRIALS} runs each and keeps the
 * faster, by the fastest run of each. Both ways give the same bits, so the choice changes only the time.
 */
final class ConcurrentGroup implements Instruction, RangeBody {
    /** How a group runs. */
    enum Mode {
        /** Measure both ways, then keep the faster. */
        TRIAL,
        /** Always side by side. */
        CONCURRENT,
        /** One after the other, each instruction split as usual. */
        SEQUENTIAL
    }

    /** Runs before the trial starts. */
    static final int WARM_UP = 60;
    /** Timed runs of each way. */
    static final int TRIALS = 20;
    /** Side by side must be at least this much faster to be kept. */
    private static final double MARGIN = 0.98;

    private final Instruction[] code;
    private final Node[] nodes;
    /** Instruction indexes per lane. */
    private final int[][] lanes;
    /** All members in plan order, for running them one after the other. */
    private final int[] members;
    /** Per member (by position in {@link #members}): when it ran and on which thread, for a profiled step. */
    private final long[] starts;
    private final long[] ends;
    private final long[] threads;
    private boolean timed;
    private volatile int failed = -1;
    private Mode mode;
    private int runs;
    private long bestConcurrent = Long.MAX_VALUE;
    private long bestSequential = Long.MAX_VALUE;

    ConcurrentGroup(Instruction[] code, Node[] nodes, int[][] lanes, int[] members, Mode mode) {
        this.code = code;
        this.nodes = nodes;
        this.lanes = lanes;
        this.members = members;
        this.starts = new long[members.length];
        this.ends = new long[members.length];
        this.threads = new long[members.length];
        this.mode = mode;
    }

    /** One line: the members by lane, and what the trial measured. */
    String describe() {
        StringBuilder sb = new StringBuilder();
        for (int l = 0; l < lanes.length; l++) {
            sb.append(l == 0 ? "" : " | ");
            for (int i = 0; i < lanes[l].length; i++) {
                Node n = nodes[lanes[l][i]];
                sb.append(i == 0 ? "" : ", ").append(n.scope().isEmpty() ? "" : n.scope() + " ").append(n.op())
                        .append(n.shape());
            }
        }
        sb.append(" -> ").append(mode);
        if (bestConcurrent != Long.MAX_VALUE && bestSequential != Long.MAX_VALUE) {
            sb.append(String.format(Locale.ROOT, " (best side by side %.1f us, one by one %.1f us)",
                    bestConcurrent / 1e3, bestSequential / 1e3));
        }
        return sb.toString();
    }

    /** How the group runs now: {@link Mode#TRIAL} until its trial has decided. */
    Mode mode() {
        return mode;
    }

    /** The members, in plan order. */
    int[] members() {
        return members;
    }

    /** The instruction that threw during the last run, or -1. */
    int failed() {
        return failed;
    }

    /**
     * Runs the members: side by side when the mode (or the trial) says so and the budget has a thread per lane (it
     * may have shrunk since planning, e.g. for an input pipeline); otherwise one after the other, each split.
     */
    @Override
    public void run() {
        failed = -1;
        if (Parallel.threads() != lanes.length || Parallel.insideRegion()) {
            runSequential();
            return;
        }
        switch (mode) {
            case CONCURRENT -> Parallel.forRange(lanes.length, 1, this);
            case SEQUENTIAL -> runSequential();
            case TRIAL -> trial();
        }
    }

    private void trial() {
        int n = runs++;
        boolean concurrent = (n & 1) == 0;
        long start = System.nanoTime();
        if (concurrent) {
            Parallel.forRange(lanes.length, 1, this);
        } else {
            runSequential();
        }
        long nanos = System.nanoTime() - start;
        if (n < WARM_UP) {
            return;
        }
        if (concurrent) {
            bestConcurrent = Math.min(bestConcurrent, nanos);
        } else {
            bestSequential = Math.min(bestSequential, nanos);
        }
        if (n + 1 >= WARM_UP + 2 * TRIALS) {
            mode = bestConcurrent < bestSequential * MARGIN ? Mode.CONCURRENT : Mode.SEQUENTIAL;
        }
    }

    private void runSequential() {
        for (int m : members) {
            if (timed) {
                runTimed(m);
            } else {
                runMember(m);
            }
        }
    }

    /** As {@link #run()}, then tells {@code timer} when each member ran and on which thread. */
    void run(KernelTimer timer) {
        timed = true;
        try {
            run();
        } finally {
            timed = false;
        }
        for (int i = 0; i < members.length; i++) {
            timer.record(nodes[members[i]], starts[i], ends[i], threads[i]);
        }
    }

    /** Runs lanes {@code [from, to)} on this thread (the region's body). */
    @Override
    public void run(int from, int to) {
        for (int lane = from; lane < to; lane++) {
            for (int m : lanes[lane]) {
                if (timed) {
                    runTimed(m);
                } else {
                    runMember(m);
                }
            }
        }
    }

    private void runMember(int m) {
        try {
            code[m].run();
        } catch (RuntimeException e) {
            failed = m;
            throw e;
        }
    }

    private void runTimed(int m) {
        int slot = 0;
        while (members[slot] != m) {
            slot++;
        }
        long start = System.nanoTime();
        runMember(m);
        ends[slot] = System.nanoTime();
        starts[slot] = start;
        threads[slot] = Thread.currentThread().threadId();
    }
}

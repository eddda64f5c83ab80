package dev.brisk.nn;

import dev.brisk.backend.Kernels;
import dev.brisk.exec.Plan;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * A model's step runners, one per call in progress. A compiled plan owns its activation buffers, so two threads
 * that ran one plan at once would overwrite each other's values; each call therefore borrows a runner (with its
 * plans) for its length and gives it back. One thread at a time keeps using the same runner and its plans, so a
 * model used from one thread holds one set of plans, as before; N threads predicting at once hold N sets (the
 * memory of one batch's activations each), kept for the next calls.
 *
 * <p>Tracing a step and planning it read and build layer state, so they run under {@link #traceLock()}, one at a
 * time per model; the planned steps then run in parallel.
 */
final class StepRunners {
    private final Model model;
    private final ConcurrentLinkedDeque<StepRunner> idle = new ConcurrentLinkedDeque<>();
    private final Object traceLock = new Object();
    /** Bumped when the kernels, the execution mode or the compiled losses change: older runners are dropped. */
    private volatile int generation;

    StepRunners(Model model) {
        this.model = model;
    }

    /** A runner for one call; give it back with {@link #release}. */
    StepRunner acquire(Kernels kernels, boolean eager) {
        StepRunner r = idle.pollFirst();
        if (r != null && r.generation() == generation) {
            return r;
        }
        return new StepRunner(model, kernels, eager, traceLock, generation);
    }

    /** Gives back a runner taken with {@link #acquire}, unless what it was made for has changed since. */
    void release(StepRunner r) {
        if (r.generation() == generation) {
            idle.offerFirst(r);
        }
    }

    /** Forgets every runner and its plans (the next call traces again). */
    void invalidate() {
        generation++;
        idle.clear();
    }

    /** The compiled train-step plan for {@code batchSize} held by an idle runner, or null. */
    Plan trainPlan(int batchSize) {
        for (StepRunner r : idle) {
            Plan p = r.plan(StepRunner.Kind.TRAIN, batchSize);
            if (p != null) {
                return p;
            }
        }
        return null;
    }

    /** How many steps the idle runners have traced and planned over their lives. */
    int traces() {
        int n = 0;
        for (StepRunner r : idle) {
            n += r.traces();
        }
        return n;
    }

    Object traceLock() {
        return traceLock;
    }
}

package dev.brisk.spark;

import dev.brisk.callbacks.Callback;
import dev.brisk.callbacks.History;
import dev.brisk.callbacks.TrainingParams;
import dev.brisk.distribute.ControlChannel;
import dev.brisk.distribute.ControlListener;
import dev.brisk.nn.Model;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The driver's side of the callbacks while the barrier stage runs: a listener on the driver's address that rank 0
 * connects to (with the job's token), and a thread that runs the callbacks on each of rank 0's reports and answers
 * whether the workers stop and at which learning rate, as single-process {@code fit} would act on them.
 *
 * <p>A retried stage (after a failed executor) connects again and reports again from its checkpoint: epochs and
 * steps the callbacks have already seen are not shown twice. A callback that throws stops the workers, and
 * {@link #finish} rethrows its error.
 */
final class DriverCallbacks implements AutoCloseable {
    private static final Duration POLL = Duration.ofMillis(200);

    private final List<Callback> callbacks;
    private final Model model;
    private final DriverTarget target;
    private final History history = new History();
    private final int epochs;
    private final int samples;
    private final ControlListener listener;
    private final float initialLearningRate;
    private final Thread thread;
    private volatile boolean finished;
    private volatile RuntimeException failure;
    private boolean begun;
    private int lastEpochBegun = -1;
    private int lastEpochEnded = -1;
    private int batchEpoch = -1;
    private int lastBatch = -1;
    private boolean weightsCurrent;
    private boolean ended;

    DriverCallbacks(List<Callback> user, Model model, int epochs, int samples, int threads, InetAddress bind,
                    int port, byte[] token, Duration timeout) throws IOException {
        this.model = model;
        this.target = new DriverTarget(model, threads);
        this.callbacks = new ArrayList<>(user);
        // As in fit, History runs after the user's callbacks and sees what they add to the logs.
        this.callbacks.add(history);
        this.epochs = epochs;
        this.samples = samples;
        this.initialLearningRate = model.optimizer().learningRate();
        this.listener = ControlListener.open(bind, port, token, timeout);
        this.thread = new Thread(this::serve, "brisk-driver-callbacks");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Where rank 0 connects. */
    InetSocketAddress address() {
        return listener.address();
    }

    /** Whether some callback handles single steps, so rank 0 reports every step's end (a round trip per step). */
    static boolean wantsSteps(List<Callback> callbacks) {
        for (Callback cb : callbacks) {
            for (String hook : List.of("onTrainBatchBegin", "onTrainBatchEnd")) {
                try {
                    if (cb.getClass().getMethod(hook, int.class, Map.class).getDeclaringClass() != Callback.class) {
                        return true;
                    }
                } catch (NoSuchMethodException e) {
                    throw new IllegalStateException("Callback has no " + hook, e);
                }
            }
        }
        return false;
    }

    private void serve() {
        ControlChannel current = null;
        try {
            while (!finished) {
                ControlChannel fresh = listener.accept(current == null ? POLL : Duration.ZERO);
                if (fresh != null) {
                    // A retried stage's rank 0: the old connection's worker is gone.
                    close(current);
                    current = fresh;
                }
                if (current == null) {
                    continue;
                }
                try {
                    byte[] m = current.poll(POLL);
                    if (m != null) {
                        current.send(ControlMessages.encode(handle(ControlMessages.decodeEvent(m))));
                    }
                } catch (IOException e) {
                    // Rank 0 failed (Spark retries the stage, whose rank 0 connects again), or it has ended.
                    if (!ended) {
                        System.err.println("brisk: lost rank 0's callback reports: " + e.getMessage());
                    }
                    close(current);
                    current = null;
                }
            }
        } catch (IOException | RuntimeException e) {
            failure = new IllegalStateException("the driver's callback listener failed: " + e.getMessage(), e);
        } finally {
            close(current);
        }
    }

    private ControlMessages.Reply handle(ControlMessages.Event e) {
        if (failure == null) {
            try {
                run(e);
            } catch (RuntimeException x) {
                failure = x;
            }
        }
        float lr = model.optimizer().hasSchedule() ? initialLearningRate : model.optimizer().learningRate();
        // Once a callback has set the rate, every answer carries it: a retried stage's workers take it too.
        return new ControlMessages.Reply(target.stopRequested() || failure != null, lr != initialLearningRate, lr);
    }

    private void run(ControlMessages.Event e) {
        switch (e.kind()) {
            case ControlMessages.HELLO -> begin(e.batch());
            case ControlMessages.EPOCH_BEGIN -> {
                if (e.epoch() > lastEpochBegun) {
                    lastEpochBegun = e.epoch();
                    callbacks.forEach(cb -> cb.onEpochBegin(e.epoch(), new LinkedHashMap<>()));
                }
            }
            case ControlMessages.BATCH_END -> {
                boolean seen = e.epoch() <= lastEpochEnded || (e.epoch() == batchEpoch && e.batch() <= lastBatch);
                if (!seen) {
                    batchEpoch = e.epoch();
                    lastBatch = e.batch();
                    weightsCurrent = false;
                    Map<String, Double> none = new LinkedHashMap<>();
                    callbacks.forEach(cb -> cb.onTrainBatchBegin(e.batch(), none));
                    // One map for all, as in fit: History sees what the callbacks before it add.
                    Map<String, Double> logs = new LinkedHashMap<>(e.logs());
                    callbacks.forEach(cb -> cb.onTrainBatchEnd(e.batch(), logs));
                }
            }
            case ControlMessages.EPOCH_END -> {
                if (e.epoch() > lastEpochEnded) {
                    lastEpochEnded = e.epoch();
                    TrainingCheckpoint.setWeights(model, e.weights());
                    weightsCurrent = true;
                    target.epochEnded(samples, e.logs());
                    Map<String, Double> logs = new LinkedHashMap<>(e.logs());
                    callbacks.forEach(cb -> cb.onEpochEnd(e.epoch(), logs));
                }
            }
            case ControlMessages.TRAIN_END -> ended = true;
            default -> throw new IllegalStateException("unknown control message " + e.kind());
        }
    }

    private void begin(int stepsPerEpoch) {
        if (begun) {
            return;
        }
        begun = true;
        TrainingParams params = new TrainingParams(epochs, stepsPerEpoch, samples, 0);
        for (Callback cb : callbacks) {
            cb.setModel(target);
            cb.setParams(params);
        }
        callbacks.forEach(cb -> cb.onTrainBegin(new LinkedHashMap<>()));
    }

    /**
     * After the stage: stops the listener, sets the trained weights into the model unless the callbacks saw the
     * last epoch's (they may have changed them, as EarlyStopping's best weights do), and the optimizer's state,
     * and ends the callbacks.
     *
     * @param result rank 0's result
     * @return the History
     */
    History finish(WorkerResult result) {
        stop();
        if (failure != null) {
            notifyFailed(failure);
            throw failure;
        }
        if (!weightsCurrent) {
            TrainingCheckpoint.setWeights(model, result.weights());
        }
        // The optimizer's state too, so that the model saves (and trains on) as after single-process fit.
        TrainingCheckpoint.restoreOptimizer(model, result.slots(), result.iterations());
        begin(0);
        callbacks.forEach(cb -> cb.onTrainEnd(new LinkedHashMap<>()));
        return history;
    }

    /** After a failed stage: tells the callbacks, once they have begun. */
    void failed(Throwable error) {
        stop();
        notifyFailed(error);
    }

    private void notifyFailed(Throwable error) {
        if (begun) {
            for (Callback cb : callbacks) {
                try {
                    cb.onTrainFailed(error);
                } catch (RuntimeException | Error suppressed) {
                    error.addSuppressed(suppressed);
                }
            }
        }
    }

    private void stop() {
        finished = true;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        close(listener);
    }

    @Override
    public void close() {
        stop();
    }

    private static void close(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // Closing after the work is done: nothing depends on it.
            }
        }
    }
}

package dev.brisk.spark;

import dev.brisk.callbacks.Callback;
import dev.brisk.distribute.ControlChannel;
import dev.brisk.distribute.RingAllReduce;
import dev.brisk.distribute.RingTransport;
import dev.brisk.nn.Model;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every worker's end of the driver's callbacks. Rank 0 reports each epoch's begin and end (with its logs, averaged
 * over the workers, and the weights) and, when a driver callback handles steps, each step's end, over its
 * {@link ControlChannel} to the driver, and waits for the answer. Then every rank takes rank 0's copy of the answer
 * over the ring (a three-float all-reduce to which only rank 0 adds), so that all of them stop at the same step, or
 * take the learning rate a driver callback set, together: a rank that stopped alone would leave the others waiting
 * in the next all-reduce.
 */
final class DriverLink extends Callback {
    private final RingTransport ring;
    private final RingAllReduce agree;
    private final ControlChannel driver;
    private final boolean steps;
    private final int attempt;
    private final float[] answer = new float[3];
    private final Model worker;
    private int currentEpoch;

    /**
     * @param ring this worker's ring
     * @param driver rank 0's channel to the driver; null on the other ranks
     * @param steps whether the driver wants each step's end
     * @param attempt the stage attempt, reported to the driver
     * @param worker this worker's model, whose weights rank 0 reports at each epoch's end
     */
    DriverLink(RingTransport ring, ControlChannel driver, boolean steps, int attempt, Model worker) {
        this.ring = ring;
        this.agree = new RingAllReduce(ring);
        this.driver = driver;
        this.steps = steps;
        this.attempt = attempt;
        this.worker = worker;
    }

    @Override
    public void onTrainBegin(Map<String, Double> logs) {
        // After fit has cleared any earlier stop: the driver may already have set a learning rate (a retried stage).
        agree(ControlMessages.HELLO, attempt, params.stepsPerEpoch(), Map.of(), null);
    }

    @Override
    public void onEpochBegin(int epoch, Map<String, Double> logs) {
        currentEpoch = epoch;
        agree(ControlMessages.EPOCH_BEGIN, epoch, 0, Map.of(), null);
    }

    @Override
    public void onTrainBatchEnd(int batch, Map<String, Double> logs) {
        if (steps) {
            agree(ControlMessages.BATCH_END, currentEpoch, batch, logs, null);
        }
    }

    @Override
    public void onEpochEnd(int epoch, Map<String, Double> logs) {
        agree(ControlMessages.EPOCH_END, epoch, 0, logs,
                driver == null ? null : TrainingCheckpoint.arrays(worker.getWeights()));
    }

    @Override
    public void onTrainEnd(Map<String, Double> logs) {
        if (driver != null) {
            ask(new ControlMessages.Event(ControlMessages.TRAIN_END, 0, 0, Map.of(), null));
        }
    }

    /** Rank 0 asks the driver; then every rank takes rank 0's answer over the ring and acts on it. */
    private void agree(byte kind, int epoch, int batch, Map<String, Double> logs, float[][] weights) {
        Arrays.fill(answer, 0f);
        if (driver != null) {
            ControlMessages.Reply r = ask(new ControlMessages.Event(kind, epoch, batch, new LinkedHashMap<>(logs),
                    weights));
            answer[0] = r.stop() ? 1 : 0;
            answer[1] = r.setLearningRate() ? 1 : 0;
            answer[2] = r.learningRate();
        }
        try {
            agree.sum(answer, 0, answer.length);
        } catch (IOException e) {
            throw new UncheckedIOException("worker " + ring.rank() + " of " + ring.size() + ": taking the driver's "
                    + "answer from rank 0 failed: " + e.getMessage(), e);
        }
        if (answer[1] > 0) {
            model.optimizer().setLearningRate(answer[2]);
        }
        if (answer[0] > 0) {
            model.stopTraining();
        }
    }

    private ControlMessages.Reply ask(ControlMessages.Event event) {
        try {
            driver.send(ControlMessages.encode(event));
            return ControlMessages.decodeReply(driver.receive());
        } catch (IOException e) {
            throw new UncheckedIOException("worker 0 lost the driver's callbacks at " + driver.peer() + ": "
                    + e.getMessage(), e);
        }
    }
}

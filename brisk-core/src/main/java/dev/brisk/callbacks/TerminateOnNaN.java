package dev.brisk.callbacks;

import java.util.Map;

/** Stops training as soon as a batch's loss is NaN or infinite, naming the epoch, batch and step. */
public final class TerminateOnNaN extends Callback {
    private int epoch;
    private long step;
    private String reason;

    /** A callback that stops training at the first non-finite loss. */
    public TerminateOnNaN() {
    }

    @Override
    public void onTrainBegin(Map<String, Double> logs) {
        // a callback reused for another fit reports that fit's steps, and no stale reason
        epoch = 0;
        step = 0;
        reason = null;
    }

    @Override
    public void onEpochBegin(int epoch, Map<String, Double> logs) {
        this.epoch = epoch;
    }

    @Override
    public void onTrainBatchEnd(int batch, Map<String, Double> logs) {
        step++;
        Double loss = logs.get("loss");
        if (loss != null && (loss.isNaN() || loss.isInfinite())) {
            reason = "Epoch " + (epoch + 1) + ", batch " + (batch + 1) + " (step " + step + "): invalid loss "
                    + loss + ", terminating training";
            System.out.println(reason);
            model.stopTraining();
        }
    }

    /**
     * Why training was stopped, or null if it was not.
     *
     * @return the reason, naming the epoch, batch and step; or null
     */
    public String reason() {
        return reason;
    }
}

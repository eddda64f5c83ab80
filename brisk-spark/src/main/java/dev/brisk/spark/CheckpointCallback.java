package dev.brisk.spark;

import dev.brisk.callbacks.Callback;
import dev.brisk.nn.Model;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rank 0's checkpoints: every {@code every} global steps, the weights, the optimizer's state, where training stands
 * and the logs of the epochs finished so far. Also keeps those logs for the driver's History.
 */
final class CheckpointCallback extends Callback {
    private final Model model;
    private final String folder;
    private final int every;
    private final List<Map<String, Double>> epochLogs;
    private long globalStep;
    private int epoch;
    private int stepsPerEpoch;

    CheckpointCallback(Model model, String folder, int every, long globalStep, List<Map<String, Double>> earlier) {
        this.model = model;
        this.folder = folder;
        this.every = every;
        this.globalStep = globalStep;
        this.epochLogs = new ArrayList<>(earlier);
    }

    List<Map<String, Double>> epochLogs() {
        return epochLogs;
    }

    @Override
    public void setParams(dev.brisk.callbacks.TrainingParams params) {
        super.setParams(params);
        this.stepsPerEpoch = params.stepsPerEpoch();
    }

    @Override
    public void onEpochBegin(int epoch, Map<String, Double> logs) {
        this.epoch = epoch;
    }

    @Override
    public void onTrainBatchEnd(int batch, Map<String, Double> logs) {
        globalStep++;
        if (folder == null || every <= 0 || globalStep % every != 0) {
            return;
        }
        boolean epochDone = batch + 1 >= stepsPerEpoch;
        int resumeEpoch = epochDone ? epoch + 1 : epoch;
        int resumeStep = epochDone ? 0 : batch + 1;
        try {
            TrainingCheckpoint.of(model, resumeEpoch, resumeStep, globalStep, epochLogs).save(folder);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the checkpoint of step " + globalStep + " to " + folder,
                    e);
        }
    }

    @Override
    public void onEpochEnd(int epoch, Map<String, Double> logs) {
        epochLogs.add(new LinkedHashMap<>(logs));
    }
}

package dev.brisk.spark;

import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * What rank 0 sends back to the driver when the barrier stage ends: the trained weights and optimizer state, each
 * epoch's logs (averaged over the workers) and where the stage started.
 *
 * @param weights the trained weights, in the model's order, flattened
 * @param slots the optimizer's state variables after training, in their order, flattened
 * @param iterations the optimizer's update count after training
 * @param epochLogs the logs of each epoch this attempt trained, in order
 * @param firstEpoch the epoch this attempt started in (above 0 when it resumed from a checkpoint)
 * @param resumedAtStep the global step of the checkpoint it resumed from, or -1
 * @param stageAttempt Spark's attempt number of the barrier stage
 */
public record WorkerResult(float[][] weights, float[][] slots, long iterations, List<Map<String, Double>> epochLogs,
                           int firstEpoch, long resumedAtStep, int stageAttempt) implements Serializable {
}

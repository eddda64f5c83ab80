package dev.brisk.data;

import java.util.List;

/**
 * What one pass over a pipeline has done so far, and what AUTOTUNE set.
 *
 * @param elements elements delivered
 * @param waitSeconds time the consumer spent waiting for them
 * @param reservedThreads threads of the budget the pipeline holds now
 * @param lastStallShare the share of the last tuning window the consumer spent waiting
 * @param lastPipelineCores cores the pipeline's threads kept busy in the last tuning window
 * @param mapParallelism workers of each autotuned parallel map
 * @param prefetchDepths buffer size of each autotuned prefetch
 */
public record PipelineStats(long elements, double waitSeconds, int reservedThreads, double lastStallShare,
                            double lastPipelineCores, List<Integer> mapParallelism, List<Integer> prefetchDepths) {
}

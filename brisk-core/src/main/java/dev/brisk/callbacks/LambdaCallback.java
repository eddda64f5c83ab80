package dev.brisk.callbacks;

import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Keras' {@code LambdaCallback}: a callback made of the functions given, each called at its point of training (the
 * others do nothing). Built with the {@code on...} methods, e.g.
 * {@code new LambdaCallback().onEpochEnd((epoch, logs) -> System.out.println(logs))}.
 */
public final class LambdaCallback extends Callback {
    private Consumer<Map<String, Double>> trainBegin = logs -> { };
    private Consumer<Map<String, Double>> trainEnd = logs -> { };
    private BiConsumer<Integer, Map<String, Double>> epochBegin = (e, logs) -> { };
    private BiConsumer<Integer, Map<String, Double>> epochEnd = (e, logs) -> { };
    private BiConsumer<Integer, Map<String, Double>> batchBegin = (b, logs) -> { };
    private BiConsumer<Integer, Map<String, Double>> batchEnd = (b, logs) -> { };

    /** A callback that does nothing until functions are set. */
    public LambdaCallback() {
    }

    /**
     * Sets the function called when training begins.
     *
     * @param f called with the logs
     * @return this callback
     */
    public LambdaCallback onTrainBegin(Consumer<Map<String, Double>> f) {
        trainBegin = f;
        return this;
    }

    /**
     * Sets the function called when training ends.
     *
     * @param f called with the logs
     * @return this callback
     */
    public LambdaCallback onTrainEnd(Consumer<Map<String, Double>> f) {
        trainEnd = f;
        return this;
    }

    /**
     * Sets the function called at the start of each epoch.
     *
     * @param f called with the epoch (from 0) and the logs
     * @return this callback
     */
    public LambdaCallback onEpochBegin(BiConsumer<Integer, Map<String, Double>> f) {
        epochBegin = f;
        return this;
    }

    /**
     * Sets the function called at the end of each epoch.
     *
     * @param f called with the epoch (from 0) and the epoch's logs
     * @return this callback
     */
    public LambdaCallback onEpochEnd(BiConsumer<Integer, Map<String, Double>> f) {
        epochEnd = f;
        return this;
    }

    /**
     * Sets the function called before each training batch.
     *
     * @param f called with the batch index within the epoch and the logs
     * @return this callback
     */
    public LambdaCallback onTrainBatchBegin(BiConsumer<Integer, Map<String, Double>> f) {
        batchBegin = f;
        return this;
    }

    /**
     * Sets the function called after each training batch.
     *
     * @param f called with the batch index within the epoch and the batch's logs
     * @return this callback
     */
    public LambdaCallback onTrainBatchEnd(BiConsumer<Integer, Map<String, Double>> f) {
        batchEnd = f;
        return this;
    }

    @Override
    public void onTrainBegin(Map<String, Double> logs) {
        trainBegin.accept(logs);
    }

    @Override
    public void onTrainEnd(Map<String, Double> logs) {
        trainEnd.accept(logs);
    }

    @Override
    public void onEpochBegin(int epoch, Map<String, Double> logs) {
        epochBegin.accept(epoch, logs);
    }

    @Override
    public void onEpochEnd(int epoch, Map<String, Double> logs) {
        epochEnd.accept(epoch, logs);
    }

    @Override
    public void onTrainBatchBegin(int batch, Map<String, Double> logs) {
        batchBegin.accept(batch, logs);
    }

    @Override
    public void onTrainBatchEnd(int batch, Map<String, Double> logs) {
        batchEnd.accept(batch, logs);
    }
}

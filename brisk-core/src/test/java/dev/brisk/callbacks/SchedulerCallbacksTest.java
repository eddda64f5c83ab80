package dev.brisk.callbacks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brisk.losses.Losses;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * LearningRateScheduler and LambdaCallback inside a real fit: the rule's rate is what the optimizer uses (a rate of
 * 0 leaves the weights untouched for that epoch) and what the history records; the lambdas run at their points.
 */
class SchedulerCallbacksTest {
    private static Sequential model() {
        Sequential m = Sequential.of(Layers.input(3), Layers.dense(4, Activation.TANH), Layers.dense(1));
        m.compile(Optimizers.sgd(0.1f), Losses.meanSquaredError());
        return m;
    }

    private static Tensor[] data() {
        float[] x = new float[48];
        float[] y = new float[16];
        for (int i = 0; i < 16; i++) {
            for (int j = 0; j < 3; j++) {
                x[3 * i + j] = (float) Math.sin(i * 3 + j);
            }
            y[i] = x[3 * i] - 0.5f * x[3 * i + 2];
        }
        return new Tensor[] {Tensor.of(x, 16, 3), Tensor.of(y, 16, 1)};
    }

    @Test
    void theRuleSetsEachEpochsRateAndLambdasSeeEveryPoint() {
        Sequential m = model();
        Tensor[] d = data();
        List<float[]> weightsAtEpochEnd = new ArrayList<>();
        List<String> events = new ArrayList<>();
        LambdaCallback recorder = new LambdaCallback()
                .onTrainBegin(logs -> events.add("train begin"))
                .onEpochBegin((e, logs) -> events.add("epoch " + e))
                .onTrainBatchEnd((b, logs) -> events.add("batch"))
                .onEpochEnd((e, logs) -> weightsAtEpochEnd.add(m.getWeights().get(0).toArray()))
                .onTrainEnd(logs -> events.add("train end"));
        LearningRateScheduler scheduler = new LearningRateScheduler((epoch, lr) -> epoch == 1 ? 0f : 0.05f, false);
        History h = m.fit(d[0], d[1], Fit.epochs(3).batchSize(8).shuffle(false).verbose(0)
                .callbacks(scheduler, recorder));
        assertEquals(List.of((double) 0.05f, 0.0, (double) 0.05f), h.get("learning_rate"));
        assertArrayEquals(weightsAtEpochEnd.get(0), weightsAtEpochEnd.get(1), "rate 0 keeps the weights");
        assertFalse(java.util.Arrays.equals(weightsAtEpochEnd.get(1), weightsAtEpochEnd.get(2)));
        assertEquals(List.of("train begin", "epoch 0", "batch", "batch", "epoch 1", "batch", "batch", "epoch 2",
                "batch", "batch", "train end"), events);
    }

    @Test
    void aNegativeRateIsRefusedNamingTheEpoch() {
        Sequential m = model();
        Tensor[] d = data();
        LearningRateScheduler bad = new LearningRateScheduler((epoch, lr) -> -1f, false);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> m.fit(d[0], d[1], Fit.epochs(1).batchSize(8).verbose(0).callbacks(bad)));
        assertEquals(true, e.getMessage().contains("epoch 0"), e.getMessage());
    }
}

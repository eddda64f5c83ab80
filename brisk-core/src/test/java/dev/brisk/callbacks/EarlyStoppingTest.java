package dev.brisk.callbacks;

import static dev.brisk.callbacks.StubTarget.logs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.losses.Losses;
import dev.brisk.nn.Fit;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** EarlyStopping against Keras' exact patience rules, driven epoch by epoch. */
class EarlyStoppingTest {
    /**
     * Feeds {@code values} of {@code metric} epoch by epoch (setting weight "w" to the epoch number first) and
     * returns the epoch at which stopping was requested, or -1; stops feeding once stopped, as fit does.
     */
    private static int drive(EarlyStopping es, StubTarget target, String metric, double... values) {
        es.setModel(target);
        es.onTrainBegin(logs());
        for (int epoch = 0; epoch < values.length; epoch++) {
            target.setW(epoch);
            es.onEpochEnd(epoch, logs(metric, values[epoch]));
            if (target.stopRequested()) {
                es.onTrainEnd(logs());
                return epoch;
            }
        }
        es.onTrainEnd(logs());
        return -1;
    }

    @Test
    void stopsAfterPatienceEpochsWithoutImprovement() {
        StubTarget t = new StubTarget();
        EarlyStopping es = new EarlyStopping("val_loss", 2);
        assertEquals(3, drive(es, t, "val_loss", 1.0, 0.9, 0.95, 0.96, 0.97, 0.98));
        assertEquals(3, es.stoppedEpoch());
        assertEquals(0.9, es.best());
        assertEquals(1, t.stopCalls);
        assertEquals(3f, t.w(), "no restore unless asked");
    }

    @Test
    void improvementResetsTheWait() {
        EarlyStopping es = new EarlyStopping("val_loss", 2);
        assertEquals(4, drive(es, new StubTarget(), "val_loss", 1.0, 1.1, 0.8, 0.85, 0.9, 0.95));
        assertEquals(0.8, es.best());
    }

    @Test
    void patienceZeroStopsAtTheFirstEpochWithoutImprovement() {
        EarlyStopping es = new EarlyStopping("loss", 0);
        assertEquals(2, drive(es, new StubTarget(), "loss", 1.0, 0.9, 0.9));
    }

    @Test
    void patienceOneAndEqualValuesAreNotImprovements() {
        assertEquals(1, drive(new EarlyStopping("loss", 1), new StubTarget(), "loss", 1.0, 1.0, 0.5));
    }

    @Test
    void neverStopsWhileImproving() {
        EarlyStopping es = new EarlyStopping("val_loss", 1);
        assertEquals(-1, drive(es, new StubTarget(), "val_loss", 5, 4, 3, 2, 1));
        assertEquals(-1, es.stoppedEpoch());
        assertEquals(1.0, es.best());
    }

    @Test
    void minDeltaMustBeExceeded() {
        EarlyStopping es = new EarlyStopping("val_loss", 0.01, 2, Monitor.AUTO, false);
        // 0.995 and 0.992 improve on 1.0 by less than 0.01: no improvement
        assertEquals(2, drive(es, new StubTarget(), "val_loss", 1.0, 0.995, 0.992, 0.5));
        assertEquals(1.0, es.best());
        // a negative min delta means the same as a positive one (Keras takes abs)
        EarlyStopping neg = new EarlyStopping("val_loss", -0.01, 2, Monitor.AUTO, false);
        assertEquals(2, drive(neg, new StubTarget(), "val_loss", 1.0, 0.995, 0.992, 0.5));
    }

    @Test
    void autoModeMaximisesAccuracy() {
        EarlyStopping es = new EarlyStopping("val_accuracy", 2);
        assertEquals(3, drive(es, new StubTarget(), "val_accuracy", 0.5, 0.6, 0.55, 0.58, 0.7));
        assertEquals(0.6, es.best());
        // explicit MIN on the same series stops earlier: 0.6 and 0.55 do not go below 0.5
        EarlyStopping min = new EarlyStopping("val_accuracy", 0, 2, Monitor.MIN, false);
        assertEquals(2, drive(min, new StubTarget(), "val_accuracy", 0.5, 0.6, 0.55, 0.58, 0.7));
        assertEquals(0.5, min.best());
        // explicit MAX for a loss-like metric
        EarlyStopping max = new EarlyStopping("val_loss", 0, 1, Monitor.MAX, false);
        assertEquals(2, drive(max, new StubTarget(), "val_loss", 0.5, 0.6, 0.55));
        assertTrue(Monitor.AUTO.maximises("val_accuracy"));
        assertTrue(Monitor.AUTO.maximises("accuracy"));
        assertTrue(Monitor.AUTO.maximises("val_sparse_categorical_accuracy"));
        assertFalse(Monitor.AUTO.maximises("val_loss"));
        assertFalse(Monitor.AUTO.maximises("loss"));
        assertTrue(Monitor.MAX.maximises("loss"));
        assertFalse(Monitor.MIN.maximises("accuracy"));
    }

    @Test
    void restoreBestWeightsRestoresTheBestEpoch() {
        StubTarget t = new StubTarget();
        EarlyStopping es = new EarlyStopping("val_loss", 0, 2, Monitor.AUTO, true);
        assertEquals(3, drive(es, t, "val_loss", 0.5, 0.3, 0.4, 0.45, 0.2));
        assertEquals(1f, t.w(), "weights of epoch 2 (index 1), the best");
    }

    @Test
    void restoreBestWeightsWhenTheFirstEpochWasBest() {
        StubTarget t = new StubTarget();
        EarlyStopping es = new EarlyStopping("val_loss", 0, 2, Monitor.AUTO, true);
        assertEquals(2, drive(es, t, "val_loss", 0.3, 0.5, 0.6));
        assertEquals(0f, t.w());
    }

    @Test
    void noRestoreWhenTrainingEndsWithoutStopping() {
        // Keras restores only when it stops the training itself
        StubTarget t = new StubTarget();
        EarlyStopping es = new EarlyStopping("val_loss", 0, 5, Monitor.AUTO, true);
        assertEquals(-1, drive(es, t, "val_loss", 0.5, 0.3, 0.4));
        assertEquals(2f, t.w());
    }

    @Test
    void missingMetricIsIgnoredAndStateIsResetPerFit() {
        StubTarget t = new StubTarget();
        EarlyStopping es = new EarlyStopping("val_loss", 1);
        es.setModel(t);
        es.onTrainBegin(logs());
        for (int e = 0; e < 5; e++) {
            es.onEpochEnd(e, logs("loss", 1.0));
        }
        assertFalse(t.stopRequested(), "a missing metric never stops training");
        // reused for a second fit: wait and best start afresh
        assertEquals(2, drive(es, new StubTarget(), "val_loss", 3.0, 2.0, 2.5));
        assertEquals(2, drive(es, new StubTarget(), "val_loss", 9.0, 8.0, 8.5));
        assertEquals(8.0, es.best());
    }

    @Test
    void stopsARealFitAndHistoryHasTheEpochsThatRan() {
        RandomSeed.set(2);
        Sequential m = Sequential.of(Layers.input(3), Layers.dense(2));
        // learning rate 0 and no shuffling: the loss is exactly the same every epoch
        m.compile(Optimizers.sgd(0f), Losses.meanSquaredError());
        Tensor x = Tensor.of(new float[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 0, 1}, 4, 3);
        Tensor y = Tensor.zeros(4, 2);
        EarlyStopping es = new EarlyStopping("loss", 2);
        History h = m.fit(x, y, Fit.epochs(20).batchSize(2).shuffle(false).verbose(0).callbacks(es));
        assertEquals(2, es.stoppedEpoch());
        assertEquals(List.of(0, 1, 2), h.epochs());
        assertEquals(3, h.get("loss").size());
        assertEquals(6, m.optimizer().iterations());
        // a later fit of the same model is not stopped before it starts
        History h2 = m.fit(x, y, Fit.epochs(2).batchSize(2).shuffle(false).verbose(0));
        assertEquals(2, h2.epochs().size());
    }

    @Test
    void restoreBestWeightsOnARealModel() {
        RandomSeed.set(4);
        Sequential m = Sequential.of(Layers.input(2), Layers.dense(1));
        m.compile(Optimizers.sgd(0.1f), Losses.meanSquaredError());
        Tensor x = Tensor.of(new float[] {1, 0, 0, 1, 1, 1, 0, 0}, 4, 2);
        Tensor y = Tensor.of(new float[] {1, 2, 3, 0}, 4, 1);
        // a scripted metric: best at epoch index 1, then worse
        double[] script = {0.5, 0.1, 0.2, 0.3, 0.4};
        List<Map<String, Tensor>> snapshots = new java.util.ArrayList<>();
        Callback scripted = new Callback() {
            @Override
            public void onEpochEnd(int epoch, Map<String, Double> logs) {
                logs.put("scripted", script[epoch]);
                snapshots.add(model.weightsByName());
            }
        };
        EarlyStopping es = new EarlyStopping("scripted", 0, 2, Monitor.MIN, true);
        m.fit(x, y, Fit.epochs(5).batchSize(4).verbose(0).callbacks(scripted, es));
        assertEquals(3, es.stoppedEpoch());
        Map<String, Tensor> now = m.weightsByName();
        for (String k : now.keySet()) {
            Tensor best = snapshots.get(1).get(k);
            for (int i = 0; i < best.size(); i++) {
                assertEquals(best.get(i), now.get(k).get(i), 0, k);
            }
        }
        // and the restored weights differ from the final epoch's
        assertTrue(snapshots.get(3).get(m.variables().get(0).name()).get(0)
                != now.get(m.variables().get(0).name()).get(0));
    }
}

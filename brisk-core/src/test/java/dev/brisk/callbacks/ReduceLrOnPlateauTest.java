package dev.brisk.callbacks;

import static dev.brisk.callbacks.StubTarget.logs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.losses.Losses;
import dev.brisk.nn.Fit;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.LearningRateSchedule;
import dev.brisk.optimizers.Optimizer;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ReduceLROnPlateau's Keras rules: patience, factor, cooldown, min_lr, and the optimiser really follows. */
class ReduceLrOnPlateauTest {
    /** The learning rate after each epoch's callback, for the monitored values given. */
    private static List<Float> drive(ReduceLrOnPlateau cb, Optimizer opt, List<Double> logged, double... values) {
        cb.setModel(new StubTarget(opt));
        cb.onTrainBegin(logs());
        List<Float> lrs = new ArrayList<>();
        for (int e = 0; e < values.length; e++) {
            Map<String, Double> l = logs("val_loss", values[e]);
            cb.onEpochEnd(e, l);
            logged.add(l.get("learning_rate"));
            lrs.add(opt.learningRate());
        }
        return lrs;
    }

    @Test
    void reducesAfterPatienceHonoursCooldownAndMinLr() {
        Optimizer opt = Optimizers.sgd(1f);
        ReduceLrOnPlateau cb = new ReduceLrOnPlateau("val_loss", 0.5f, 2, 0, 1, 0.2f, Monitor.AUTO);
        List<Double> logged = new ArrayList<>();
        List<Float> lrs = drive(cb, opt, logged, 1, 1, 1, 1, 1, 1, 1, 1, 1);
        // e0 best; e1 wait 1; e2 wait 2 -> 0.5 (cooldown 1); e3 cooldown ends, wait 1; e4 wait 2 -> 0.25;
        // e5 cooldown ends, wait 1; e6 -> max(0.125, 0.2) = 0.2; then lr == min_lr: no further change
        assertEquals(List.of(1f, 1f, 0.5f, 0.5f, 0.25f, 0.25f, 0.2f, 0.2f, 0.2f), lrs);
        // the learning rate logged is the one the epoch trained with (before the reduction)
        assertEquals(List.of(1f, 1f, 1f, 0.5f, 0.5f, 0.25f, 0.25f, 0.2f, 0.2f),
                logged.stream().map(Double::floatValue).toList());
    }

    @Test
    void improvementsResetTheWaitAndMinDeltaCounts() {
        Optimizer opt = Optimizers.sgd(1f);
        ReduceLrOnPlateau cb = new ReduceLrOnPlateau("val_loss", 0.1f, 2, 0.05, 0, 0f, Monitor.AUTO);
        // 0.98 is not better than 1.0 by more than 0.05; 0.9 is
        List<Float> lrs = drive(cb, opt, new ArrayList<>(), 1.0, 0.98, 0.9, 0.88, 0.87, 0.7);
        assertEquals(1f, lrs.get(2));
        assertEquals(1f, lrs.get(3));
        assertEquals(0.1f, lrs.get(4), 1e-7);
        assertEquals(0.1f, lrs.get(5), 1e-7);
    }

    @Test
    void kerasDefaultsWaitTenEpochs() {
        Optimizer opt = Optimizers.sgd(0.5f);
        double[] flat = new double[12];
        java.util.Arrays.fill(flat, 3.0);
        List<Float> lrs = drive(new ReduceLrOnPlateau("val_loss"), opt, new ArrayList<>(), flat);
        assertEquals(0.5f, lrs.get(9));
        assertEquals(0.05f, lrs.get(10), 1e-8);
        assertEquals(0.05f, lrs.get(11), 1e-8);
    }

    @Test
    void factorOfOneOrMoreIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ReduceLrOnPlateau("val_loss", 1f, 2, 0, 0, 0, Monitor.AUTO));
        assertTrue(e.getMessage().contains("factor"), e.getMessage());
    }

    @Test
    void aScheduledOptimizerCannotBeReduced() {
        Optimizer opt = Optimizers.adam(LearningRateSchedule.exponentialDecay(1f, 10, 0.5f, false));
        ReduceLrOnPlateau cb = new ReduceLrOnPlateau("val_loss", 0.5f, 0, 0, 0, 0, Monitor.AUTO);
        cb.setModel(new StubTarget(opt));
        cb.onTrainBegin(logs());
        cb.onEpochEnd(0, logs("val_loss", 1.0));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> cb.onEpochEnd(1, logs("val_loss", 1.0)));
        assertTrue(e.getMessage().contains("schedule"), e.getMessage());
    }

    @Test
    void theNextCompiledStepUsesTheReducedRate() {
        RandomSeed.set(6);
        Sequential m = Sequential.of(Layers.input(2), Layers.dense(1));
        Optimizer sgd = Optimizers.sgd(0.05f);
        m.compile(sgd, Losses.meanSquaredError());
        Tensor x = Tensor.of(new float[] {1, 0, 0, 1, 1, 1, 2, 1}, 4, 2);
        Tensor y = Tensor.of(new float[] {3, -1, 2, 5}, 4, 1);
        // a constant metric: no improvement after epoch 0, so with patience 1 the rate is cut after epoch 1;
        // factor 0 makes the cut visible: from then on no step may move the weights
        Callback constant = new Callback() {
            @Override
            public void onEpochEnd(int epoch, Map<String, Double> l) {
                l.put("plateau", 1.0);
            }
        };
        List<List<Tensor>> weights = new ArrayList<>();
        List<Float> lrSeenByBatches = new ArrayList<>();
        Callback recorder = new Callback() {
            @Override
            public void onTrainBatchBegin(int batch, Map<String, Double> l) {
                lrSeenByBatches.add(model.optimizer().learningRate());
            }

            @Override
            public void onEpochEnd(int epoch, Map<String, Double> l) {
                weights.add(m.getWeights());
            }
        };
        ReduceLrOnPlateau cb = new ReduceLrOnPlateau("plateau", 0f, 1, 0, 0, 0f, Monitor.AUTO);
        History h = m.fit(x, y, Fit.epochs(4).batchSize(2).shuffle(false).verbose(0)
                .callbacks(constant, cb, recorder));
        assertEquals(0f, sgd.learningRate());
        assertEquals(List.of(0.05f, 0.05f, 0.05f, 0.05f, 0f, 0f, 0f, 0f), lrSeenByBatches);
        assertTrue(TestWeights.maxDiff(weights.get(0), weights.get(1)) > 1e-4, "epoch 2 trained at 0.05");
        assertEquals(0.0, TestWeights.maxDiff(weights.get(1), weights.get(2)), "epoch 3 trained at 0");
        assertEquals(0.0, TestWeights.maxDiff(weights.get(2), weights.get(3)), "epoch 4 trained at 0");
        assertEquals(8, sgd.iterations());
        // Keras' History is the last callback, so it records the learning rate ReduceLROnPlateau adds
        assertEquals(List.of(0.05f, 0.05f, 0f, 0f), h.get("learning_rate").stream().map(Double::floatValue).toList());
    }
}

package dev.brisk.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.Callback;
import dev.brisk.callbacks.History;
import dev.brisk.data.Batch;
import dev.brisk.data.Pipeline;
import dev.brisk.data.preprocessing.Rescaling;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Fit;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** fit, evaluate and predict take a pipeline of batches as well as arrays, with the same results. */
class PipelineFitTest {
    private static final Tensor[] TRAIN = TestData.classification(200, 5, 21);
    private static final Tensor[] VAL = TestData.classification(60, 5, 22);

    private static Sequential model() {
        RandomSeed.set(17);
        Sequential m = Sequential.of(Layers.input(5), Layers.dense(16, Activation.RELU), Layers.dense(3));
        m.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        return m;
    }

    private static Pipeline<Batch> batches(Tensor[] xy, int batchSize) {
        return Pipeline.fromArrays(xy[0], xy[1]).batch(batchSize);
    }

    @Test
    void aShuffledPipelineTrainsExactlyLikeArraysWithTheSameSeed() {
        Sequential arrays = model();
        History a = arrays.fit(TRAIN[0], TRAIN[1], Fit.epochs(3).batchSize(16).seed(5).verbose(0)
                .validation(VAL[0], VAL[1]));
        Sequential piped = model();
        Pipeline<Batch> train = Pipeline.fromArrays(TRAIN[0], TRAIN[1]).shuffle(200, 5)
                .map(s -> s, Pipeline.AUTOTUNE).batch(16).prefetch(Pipeline.AUTOTUNE);
        History p = piped.fit(train, Fit.epochs(3).verbose(0).validation(batches(VAL, 16)));
        for (String metric : List.of("loss", "accuracy", "val_loss", "val_accuracy")) {
            assertEquals(a.get(metric), p.get(metric), metric + " of every epoch, bit for bit");
        }
        assertTrue(p.last("accuracy") > 0.6, p.toString());

        Map<String, Double> evaluated = piped.evaluate(batches(VAL, 16));
        assertEquals(arrays.evaluate(VAL[0], VAL[1], 16), evaluated);
        assertEquals(p.last("val_loss"), evaluated.get("loss"));
        Tensor predicted = piped.predict(Pipeline.fromTensor(VAL[0]).batch(7));
        assertEquals(Shape.of(60, 3), predicted.shape());
        TestData.assertSameValues(arrays.predict(VAL[0], 7), predicted, 0, "predictions");
    }

    /**
     * fit gives every batch back and the pipeline stacks later ones into its arrays; an eager step binds the batch
     * itself (no copy), so this checks that nothing reads a batch after it is given back: the same bits as arrays,
     * compiled and eager, with a repeating pass that continues across epochs.
     */
    @Test
    void reusedBatchesTrainExactlyLikeArraysCompiledAndEager() {
        for (boolean eager : new boolean[] {false, true}) {
            Sequential arrays = model();
            arrays.runEagerly(eager);
            History a = arrays.fit(TRAIN[0], TRAIN[1], Fit.epochs(3).batchSize(20).seed(5).verbose(0)
                    .validation(VAL[0], VAL[1]));
            Sequential piped = model();
            piped.runEagerly(eager);
            Pipeline<Batch> train = Pipeline.fromArrays(TRAIN[0], TRAIN[1]).shuffle(200, 5).batch(20)
                    .map(Batch.features(new Rescaling(1f)), 2).prefetch(3).repeat();
            History p = piped.fit(train, Fit.epochs(3).stepsPerEpoch(10).verbose(0)
                    .validation(Pipeline.fromArrays(VAL[0], VAL[1]).batch(20).prefetch(2)));
            for (String metric : List.of("loss", "accuracy", "val_loss", "val_accuracy")) {
                assertEquals(a.get(metric), p.get(metric), metric + (eager ? ", eager" : ", compiled"));
            }
        }
    }

    @Test
    void stepsPerEpochReadsOnePassAcrossEpochs() {
        Sequential m = model();
        Pipeline<Batch> endless = Pipeline.fromArrays(TRAIN[0], TRAIN[1]).shuffle(200, 1).repeat().batch(32);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> m.fit(endless, Fit.epochs(1).verbose(0)));
        assertEquals("fit got a pipeline that repeats forever; give the number of batches per epoch with "
                + "Fit.stepsPerEpoch(n), or use repeat(count)", e.getMessage());
        History h = m.fit(endless, Fit.epochs(4).stepsPerEpoch(5).verbose(0));
        assertEquals(4, h.get("loss").size());
        assertTrue(h.last("loss") < h.get("loss").get(0), h.toString());
    }

    @Test
    void fitNeedsLabelsButPredictDoesNot() {
        Sequential m = model();
        Pipeline<Batch> unlabelled = Pipeline.fromTensor(TRAIN[0]).batch(50);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> m.fit(unlabelled, Fit.epochs(1).verbose(0)));
        assertEquals("fit needs (features, labels) batches, but batch 0 of the pipeline has features only",
                e.getMessage());
        assertEquals(Shape.of(200, 3), m.predict(unlabelled).shape());
        assertEquals(Shape.of(200, 3), m.predict(batches(TRAIN, 64)).shape(), "labels are ignored");
    }

    @Test
    void stoppingEarlyStopsThePipelineAtOnce() {
        Sequential m = model();
        Pipeline<Batch> endless = Pipeline.fromArrays(TRAIN[0], TRAIN[1]).repeat().batch(8)
                .map(b -> b, 2).prefetch(4);
        Callback stopAtThirdBatch = new Callback() {
            @Override
            public void onTrainBatchEnd(int batch, Map<String, Double> logs) {
                if (batch == 2) {
                    model.stopTraining();
                }
            }
        };
        m.fit(endless, Fit.epochs(1).stepsPerEpoch(1000).verbose(0).callbacks(stopAtThirdBatch));
        long alive = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("brisk-pipeline-")).count();
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (alive > 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            alive = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.isAlive() && t.getName().startsWith("brisk-pipeline-")).count();
        }
        assertEquals(0, alive, "no pipeline thread outlives fit");
        assertEquals(0, ThreadBudget.reserved(), "no thread stays reserved");
    }

    @Test
    void anEmptyPipelineIsRefused() {
        Sequential m = model();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> m.fit(batches(TRAIN, 10).take(0), Fit.epochs(1).verbose(0)));
        assertEquals("fit needs at least one sample, but the pipeline gave no batch", e.getMessage());
    }

    @Test
    void aPipelineWithoutKnownLengthTrainsAndPredictsEverySample() {
        Sequential m = model();
        Pipeline<Batch> filtered = Pipeline.fromArrays(TRAIN[0], TRAIN[1]).filter(s -> s.label().get(0) != 2f)
                .batch(16);
        assertEquals(Pipeline.UNKNOWN, filtered.cardinality());
        History h = m.fit(filtered, Fit.epochs(2).verbose(0));
        assertEquals(2, h.get("loss").size());
        int kept = 0;
        for (int i = 0; i < 200; i++) {
            kept += TRAIN[1].get(i) != 2f ? 1 : 0;
        }
        assertEquals(Shape.of(kept, 3), m.predict(filtered).shape());
    }
}

package dev.brisk.callbacks;

import static dev.brisk.callbacks.StubTarget.logs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.Fit;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** History keeps every epoch's logs, exactly as the callbacks saw them. */
class HistoryTest {
    @Test
    void recordsEveryEpochInOrder() {
        History h = new History();
        h.onTrainBegin(logs());
        for (int e = 0; e < 4; e++) {
            h.onEpochEnd(e, logs("loss", 1.0 / (e + 1), "accuracy", e / 10.0));
        }
        assertEquals(List.of(0, 1, 2, 3), h.epochs());
        assertEquals(List.of(1.0, 0.5, 1.0 / 3, 0.25), h.get("loss"));
        assertEquals(0.3, h.last("accuracy"));
        assertEquals(List.of("loss", "accuracy"), List.copyOf(h.asMap().keySet()));
        assertThrows(UnsupportedOperationException.class, () -> h.get("loss").add(0.0));
        assertThrows(UnsupportedOperationException.class, () -> h.asMap().clear());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> h.last("val_loss"));
        assertTrue(e.getMessage().contains("val_loss") && e.getMessage().contains("loss"), e.getMessage());
    }

    @Test
    void fitRecordsWhatTheCallbacksSawEachEpoch() {
        RandomSeed.set(12);
        Sequential m = Sequential.of(Layers.input(2), Layers.dense(3));
        m.compile(Optimizers.adam(5e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        Tensor x = Tensor.of(new float[] {1, 0, 0, 1, -1, 0, 1, 1, 0, -1, -1, -1}, 6, 2);
        Tensor y = Tensor.of(new float[] {0, 1, 2, 0, 1, 2}, 6);
        List<Map<String, Double>> seen = new ArrayList<>();
        Callback spy = new Callback() {
            @Override
            public void onEpochEnd(int epoch, Map<String, Double> l) {
                seen.add(new LinkedHashMap<>(l));
            }
        };
        History h = m.fit(x, y, Fit.epochs(5).batchSize(4).validation(x, y).verbose(0).callbacks(spy));
        assertEquals(List.of(0, 1, 2, 3, 4), h.epochs());
        assertEquals(5, seen.size());
        for (String k : List.of("loss", "accuracy", "val_loss", "val_accuracy")) {
            assertEquals(5, h.get(k).size(), k);
            for (int e = 0; e < 5; e++) {
                assertEquals(seen.get(e).get(k), h.get(k).get(e), k + " at epoch " + e);
            }
        }
        assertTrue(h.last("loss") < h.get("loss").get(0), h.toString());
        assertTrue(h.toString().startsWith("History{loss=["), h.toString());
    }

    @Test
    void fitRecordsCpuUtilisationAndInputWaitPerEpoch() {
        RandomSeed.set(13);
        Sequential m = Sequential.of(Layers.input(2), Layers.dense(3));
        m.compile(Optimizers.adam(5e-2f), Losses.sparseCategoricalCrossentropy(true));
        Tensor x = Tensor.of(new float[] {1, 0, 0, 1, -1, 0, 1, 1, 0, -1, -1, -1}, 6, 2);
        Tensor y = Tensor.of(new float[] {0, 1, 2, 0, 1, 2}, 6);
        History h = m.fit(x, y, Fit.epochs(3).batchSize(2).verbose(0));
        assertEquals(3, h.get("cpu_util").size());
        assertEquals(3, h.get("input_wait").size());
        for (int e = 0; e < 3; e++) {
            double cpu = h.get("cpu_util").get(e);
            double wait = h.get("input_wait").get(e);
            assertTrue(cpu >= 0 && Double.isFinite(cpu), "cpu_util " + cpu); // 10 ms CPU ticks: may read 0
            assertTrue(wait >= 0 && wait <= 1, "input_wait " + wait);
        }
        EpochStats last = m.lastEpochStats();
        assertEquals(last.cpuUtilisation(), h.last("cpu_util"));
        assertEquals(last.inputWaitShare(), h.last("input_wait"));
        assertEquals(last.coresBusy() / last.threads(), last.cpuUtilisation(), 1e-12,
                "cpu_util is busy cores over the thread budget");
    }
}

package dev.brisk.callbacks;

import static dev.brisk.callbacks.StubTarget.logs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** TerminateOnNaN stops at the first bad batch loss and says where. */
class TerminateOnNaNTest {
    @Test
    void finiteLossesNeverStop() {
        StubTarget t = new StubTarget();
        TerminateOnNaN cb = new TerminateOnNaN();
        cb.setModel(t);
        cb.onTrainBegin(logs());
        for (int e = 0; e < 3; e++) {
            cb.onEpochBegin(e, logs());
            for (int b = 0; b < 4; b++) {
                cb.onTrainBatchEnd(b, logs("loss", 1e30, "accuracy", Double.NaN));
            }
        }
        assertFalse(t.stopRequested(), "huge but finite losses, and NaN in other metrics, are fine");
        assertNull(cb.reason());
    }

    @Test
    void nanLossStopsAndNamesEpochBatchAndStep() {
        StubTarget t = new StubTarget();
        TerminateOnNaN cb = new TerminateOnNaN();
        cb.setModel(t);
        cb.onTrainBegin(logs());
        cb.onEpochBegin(0, logs());
        for (int b = 0; b < 4; b++) {
            cb.onTrainBatchEnd(b, logs("loss", 0.5));
        }
        cb.onEpochBegin(1, logs());
        cb.onTrainBatchEnd(0, logs("loss", 0.4));
        assertFalse(t.stopRequested());
        cb.onTrainBatchEnd(1, logs("loss", Double.NaN));
        assertTrue(t.stopRequested());
        assertEquals(1, t.stopCalls);
        String r = cb.reason();
        assertTrue(r.contains("Epoch 2"), r);
        assertTrue(r.contains("batch 2"), r);
        assertTrue(r.contains("step 6"), r);
        assertTrue(r.contains("NaN"), r);
    }

    @Test
    void aReusedCallbackStartsAfreshEachFit() {
        StubTarget t = new StubTarget();
        TerminateOnNaN cb = new TerminateOnNaN();
        cb.setModel(t);
        cb.onTrainBegin(logs());
        cb.onEpochBegin(0, logs());
        cb.onTrainBatchEnd(0, logs("loss", 1.0));
        cb.onTrainBatchEnd(1, logs("loss", Double.NaN));
        assertTrue(cb.reason().contains("step 2"), cb.reason());
        // second fit: clean, so no reason is reported
        cb.onTrainBegin(logs());
        cb.onEpochBegin(0, logs());
        cb.onTrainBatchEnd(0, logs("loss", 1.0));
        assertNull(cb.reason(), "no stale reason from the previous fit");
        cb.onTrainBatchEnd(1, logs("loss", Double.NaN));
        assertTrue(cb.reason().contains("Epoch 1, batch 2 (step 2)"), cb.reason());
    }

    @Test
    void infiniteLossStopsToo() {
        for (double bad : new double[] {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            StubTarget t = new StubTarget();
            TerminateOnNaN cb = new TerminateOnNaN();
            cb.setModel(t);
            cb.onEpochBegin(0, logs());
            cb.onTrainBatchEnd(0, logs("loss", bad));
            assertTrue(t.stopRequested());
            assertTrue(cb.reason().contains("Epoch 1, batch 1 (step 1)"), cb.reason());
            assertTrue(cb.reason().contains("Infinity"), cb.reason());
        }
    }
}

package dev.brisk.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.tensor.Tensor;
import org.junit.jupiter.api.Test;

/**
 * Metrics of an output with a padding mask count only the steps it keeps: each equals the same metric fed only the
 * kept rows, built here by hand; sequence accuracy compares each step's row of classes.
 */
class MaskedMetricsTest {
    /** Two samples of three steps, four classes; step 2 of sample 0 and steps 1, 2 of sample 1 are padding. */
    private static final float[] MASK = {1, 1, 0, 1, 0, 0};
    private static final float[] LABELS = {1, 3, 0, 2, 1, 1};
    /** Argmax per step: 1, 0, 0, 2, 1, 3: right, wrong, (right), right, (right), (wrong). */
    private static final float[] SCORES = {
        0, 5, 1, 2,   4, 0, 1, 2,   9, 0, 0, 0,
        0, 1, 7, 2,   0, 3, 0, 0,   0, 0, 0, 6};

    private static Tensor mask() {
        return Tensor.of(MASK, 2, 3);
    }

    @Test
    void sparseAccuracyCountsOnlyTheRealSteps() {
        Accuracy a = new Accuracy("accuracy", Accuracy.Kind.SPARSE_CATEGORICAL, 0.5f);
        a.update(Tensor.of(LABELS, 2, 3), Tensor.of(SCORES, 2, 3, 4), mask());
        assertEquals(2.0 / 3, a.result(), 1e-12);
        // Without a mask every step counts, each one row of classes: 4 of 6.
        a.reset();
        a.update(Tensor.of(LABELS, 2, 3), Tensor.of(SCORES, 2, 3, 4));
        assertEquals(4.0 / 6, a.result(), 1e-12);
    }

    @Test
    void categoricalAndBinaryAccuracyCountOnlyTheRealSteps() {
        float[] oneHot = new float[24];
        for (int i = 0; i < 6; i++) {
            oneHot[i * 4 + (int) LABELS[i]] = 1;
        }
        Accuracy c = new Accuracy("categorical_accuracy", Accuracy.Kind.CATEGORICAL, 0.5f);
        c.update(Tensor.of(oneHot, 2, 3, 4), Tensor.of(SCORES, 2, 3, 4), mask());
        assertEquals(2.0 / 3, c.result(), 1e-12);
        // Binary, two values a step: kept steps 0, 1, 3 hold elements 0-1, 2-3, 6-7.
        float[] p = {0.9f, 0.1f, 0.8f, 0.7f, 0.9f, 0.9f, 0.2f, 0.6f, 0.9f, 0.9f, 0.9f, 0.9f};
        float[] t = {1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0};
        Accuracy b = new Accuracy("binary_accuracy", Accuracy.Kind.BINARY, 0.5f);
        b.update(Tensor.of(t, 2, 3, 2), Tensor.of(p, 2, 3, 2), mask());
        assertEquals(5.0 / 6, b.result(), 1e-12);
    }

    @Test
    void theDefaultMaskedUpdateFeedsTheKeptRows() {
        float[] yTrue = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
        float[] yPred = {1.5f, 2, 3, 4, 50, 60, 7, 9, 90, 100, 110, 120};
        RegressionError masked = new RegressionError(RegressionError.Kind.MEAN_SQUARED_ERROR, null);
        masked.update(Tensor.of(yTrue, 2, 3, 2), Tensor.of(yPred, 2, 3, 2), mask());
        RegressionError kept = new RegressionError(RegressionError.Kind.MEAN_SQUARED_ERROR, null);
        kept.update(Tensor.of(new float[] {1, 2, 3, 4, 7, 8}, 3, 2),
                Tensor.of(new float[] {1.5f, 2, 3, 4, 7, 9}, 3, 2));
        assertEquals(kept.result(), masked.result(), 0);
        assertEquals((0.25 + 1) / 6, masked.result(), 1e-12);
        // Class ids as INT32 targets keep their type; a top-k accuracy reads them.
        TopKAccuracy top = new TopKAccuracy(true, 1, null);
        top.update(Tensor.ofInts(new int[] {1, 3, 0, 2, 1, 1}, 2, 3), Tensor.of(SCORES, 2, 3, 4), mask());
        assertEquals(2.0 / 3, top.result(), 1e-12);
        // A batch that is all padding adds nothing.
        masked.update(Tensor.of(yTrue, 2, 3, 2), Tensor.of(yPred, 2, 3, 2), Tensor.zeros(2, 3));
        assertEquals(kept.result(), masked.result(), 0);
    }

    @Test
    void aMaskThatDoesNotFitIsRefusedByName() {
        RegressionError m = new RegressionError(RegressionError.Kind.MEAN_ABSOLUTE_ERROR, null);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> m.update(Tensor.zeros(2, 3), Tensor.zeros(2, 3), Tensor.zeros(2, 4)));
        assertTrue(e.getMessage().contains("mean_absolute_error"), e.getMessage());
        Accuracy a = new Accuracy("accuracy", Accuracy.Kind.SPARSE_CATEGORICAL, 0.5f);
        assertThrows(IllegalArgumentException.class,
                () -> a.update(Tensor.zeros(2, 3), Tensor.zeros(2, 3, 4), Tensor.zeros(2, 4)));
    }
}

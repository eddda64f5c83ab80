package dev.brisk.cli;

import java.util.Locale;
import java.util.Map;

/**
 * The figure a workload reports on the test set after training: accuracy for a classifier, the loss for a model that
 * has no accuracy (a reconstruction). It names the key of {@code Model.evaluate}'s map it reads and the field of the
 * RESULT line it fills, so that {@code train}, {@code bench} and the PyTorch twins agree on both.
 */
enum TestMetric {
    /** Classification accuracy on the test set: {@code test_acc=}. */
    ACCURACY("accuracy", "test_acc", "acc"),
    /** The training loss evaluated on the test set: {@code test_loss=}. */
    LOSS("loss", "test_loss", "loss");

    private final String evaluateKey;
    private final String resultField;
    private final String shortName;

    TestMetric(String evaluateKey, String resultField, String shortName) {
        this.evaluateKey = evaluateKey;
        this.resultField = resultField;
        this.shortName = shortName;
    }

    /** The key of this figure in the map {@code Model.evaluate} returns. */
    String evaluateKey() {
        return evaluateKey;
    }

    /** The RESULT line's field name: "test_acc" or "test_loss". */
    String resultField() {
        return resultField;
    }

    /** This figure in {@code evaluation} (from {@code Model.evaluate}), NaN where the map lacks it. */
    double of(Map<String, Double> evaluation) {
        return evaluation.getOrDefault(evaluateKey, Double.NaN);
    }

    /** "acc 0.8850" or "loss 0.0712": the figure with its kind, for a table column shared by both. */
    String label(double value) {
        return String.format(Locale.ROOT, "%s %.4f", shortName, value);
    }
}

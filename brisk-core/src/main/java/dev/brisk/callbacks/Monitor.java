package dev.brisk.callbacks;

/** Which direction of a monitored value is an improvement ("auto": max for accuracies, min otherwise). */
public enum Monitor {
    /** Max for metrics whose name contains "acc" or "auc", min otherwise (Keras' "auto"). */
    AUTO,
    /** Smaller is better, e.g. a loss. */
    MIN,
    /** Larger is better, e.g. an accuracy. */
    MAX;

    /**
     * True when larger values of {@code metric} are better under this mode.
     *
     * @param metric the monitored metric's name
     * @return true when a larger value is an improvement
     */
    public boolean maximises(String metric) {
        return this == MAX || (this == AUTO && (metric.contains("acc") || metric.contains("auc")));
    }

    /** Whether {@code current} improves on {@code best} by more than {@code minDelta}. */
    static boolean improves(boolean maximise, double current, double best, double minDelta) {
        if (Double.isNaN(best)) {
            return !Double.isNaN(current);
        }
        return maximise ? current - minDelta > best : current + minDelta < best;
    }
}

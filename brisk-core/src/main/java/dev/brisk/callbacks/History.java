package dev.brisk.callbacks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What {@code fit} returns: every epoch's logs, by metric name (Keras' History). */
public final class History extends Callback {
    private final Map<String, List<Double>> history = new LinkedHashMap<>();
    private final List<Integer> epochs = new ArrayList<>();

    /** An empty history; {@code fit} fills it epoch by epoch. */
    public History() {
    }

    @Override
    public void onEpochEnd(int epoch, Map<String, Double> logs) {
        epochs.add(epoch);
        logs.forEach((k, v) -> history.computeIfAbsent(k, x -> new ArrayList<>()).add(v));
    }

    /**
     * The values of {@code metric}, one per finished epoch.
     *
     * @param metric the metric's name, e.g. {@code val_accuracy}
     * @return the values
     * @throws IllegalArgumentException naming the metrics there are, when {@code metric} was never logged
     */
    public List<Double> get(String metric) {
        List<Double> v = history.get(metric);
        if (v == null) {
            throw new IllegalArgumentException("no metric '" + metric + "' in history; have " + history.keySet());
        }
        return Collections.unmodifiableList(v);
    }

    /**
     * The value of {@code metric} after the last epoch.
     *
     * @param metric the metric's name
     * @return the last value
     */
    public double last(String metric) {
        List<Double> v = get(metric);
        return v.get(v.size() - 1);
    }

    /**
     * The finished epochs (0-based).
     *
     * @return the epoch numbers
     */
    public List<Integer> epochs() {
        return Collections.unmodifiableList(epochs);
    }

    /**
     * All series, by metric name.
     *
     * @return the series; an unmodifiable view
     */
    public Map<String, List<Double>> asMap() {
        return Collections.unmodifiableMap(history);
    }

    @Override
    public String toString() {
        return "History" + history;
    }
}

package dev.brisk.metrics;

import dev.brisk.tensor.Tensor;

/** A weighted running mean of scalar values (the "loss" column of the progress bar). */
public final class Mean implements Metric {
    private final String name;
    private double total;
    private double weight;

    /**
     * A mean named {@code name}, starting empty (its result is 0 until a value is added).
     *
     * @param name the name in logs, e.g. {@code loss}
     */
    public Mean(String name) {
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    /**
     * Adds {@code value} with weight {@code count} (the batch size).
     *
     * @param value the value, e.g. a batch's mean loss
     * @param count its weight, e.g. the batch size
     */
    public void add(double value, double count) {
        total += value * count;
        weight += count;
    }

    @Override
    public void update(Tensor yTrue, Tensor yPred) {
        throw new UnsupportedOperationException("Mean takes values through add(value, count)");
    }

    @Override
    public double result() {
        return weight == 0 ? 0 : total / weight;
    }

    @Override
    public void reset() {
        total = 0;
        weight = 0;
    }
}

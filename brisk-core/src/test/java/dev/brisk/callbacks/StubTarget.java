package dev.brisk.callbacks;

import dev.brisk.io.WeightsFile;
import dev.brisk.optimizers.Optimizer;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A model stand-in for driving callbacks directly: one weight "w" whose value the test sets per epoch. */
final class StubTarget implements TrainingTarget {
    final Optimizer optimizer;
    final Map<String, Tensor> weights = new LinkedHashMap<>();
    final List<Path> saved = new ArrayList<>();
    int stopCalls;
    boolean stop;
    EpochStats stats;

    StubTarget(Optimizer optimizer) {
        this.optimizer = optimizer;
        setW(0);
    }

    StubTarget() {
        this(Optimizers.sgd(1f));
    }

    /** Sets the (single-element) weight "w". */
    void setW(float v) {
        weights.put("w", Tensor.of(new float[] {v}, 1));
    }

    float w() {
        return weights.get("w").get(0);
    }

    @Override
    public void stopTraining() {
        stopCalls++;
        stop = true;
    }

    @Override
    public boolean stopRequested() {
        return stop;
    }

    @Override
    public Optimizer optimizer() {
        return optimizer;
    }

    @Override
    public Map<String, Tensor> weightsByName() {
        Map<String, Tensor> copy = new LinkedHashMap<>();
        weights.forEach((k, v) -> copy.put(k, v.copy()));
        return copy;
    }

    @Override
    public void setWeightsByName(Map<String, Tensor> w) {
        w.forEach((k, v) -> weights.put(k, v.copy()));
    }

    @Override
    public void saveWeights(Path file) throws IOException {
        saved.add(file);
        WeightsFile.save(file, weightsByName());
    }

    @Override
    public EpochStats lastEpochStats() {
        return stats;
    }

    static Map<String, Double> logs(Object... kv) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], ((Number) kv[i + 1]).doubleValue());
        }
        return m;
    }
}

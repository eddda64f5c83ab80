package dev.brisk.nn;

import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.Map;

/**
 * Keras' {@code class_weight} as sample weights: each training batch gets the weight of each sample's class
 * (Keras' {@code class_weight_to_sample_weights}: the class is the rounded label, or the largest entry of a one-hot
 * row; classes not in the map weigh 1). Validation is not weighted, as in Keras.
 */
final class ClassWeights {
    private static final ClassWeights NONE = new ClassWeights(null, null);

    private final Map<Integer, Float> weights;
    private final String model;

    private ClassWeights(Map<Integer, Float> weights, String model) {
        this.weights = weights;
        this.model = model;
    }

    /**
     * The class weights of a fit, or none.
     *
     * @throws IllegalArgumentException for several outputs or with sample weights, which Keras refuses too
     */
    static ClassWeights of(Map<Integer, Float> weights, Model model, boolean sampleWeighted) {
        if (weights == null) {
            return NONE;
        }
        if (model.outputs().size() > 1) {
            throw new IllegalArgumentException("fit of model '" + model.name() + "': classWeight applies to a model"
                    + " with one output, but it has " + model.outputs().size() + "; weight the samples instead");
        }
        if (sampleWeighted) {
            throw new IllegalArgumentException("fit of model '" + model.name() + "': classWeight and sampleWeight"
                    + " do not go together (as in Keras); fold the class weights into the sample weights");
        }
        return new ClassWeights(weights, model.name());
    }

    /** {@code batch} with its samples' class weights, or itself when there are none. */
    StepBatch apply(StepBatch batch) {
        if (weights == null || batch == null) {
            return batch;
        }
        if (batch.weights() != null) {
            throw new IllegalArgumentException("fit of model '" + model + "': classWeight and batches that carry"
                    + " sample weights do not go together (as in Keras)");
        }
        Tensor y = batch.y()[0];
        int n = batch.size();
        int row = y.size() / Math.max(1, n);
        if (y.shape().rank() > 2 || row > 1 && y.shape().rank() != 2) {
            throw new IllegalArgumentException("fit of model '" + model + "': classWeight needs one class per sample"
                    + " (a class index, a 0/1 label or a one-hot row), but the targets have shape " + y.shape());
        }
        Tensor w = Tensor.zeros(Shape.of(n));
        for (int i = 0; i < n; i++) {
            int cls;
            if (row == 1) {
                cls = y.dtype() == DType.INT32 ? Float.floatToRawIntBits(y.get(i)) : Math.round(y.get(i));
            } else {
                cls = 0;
                for (int k = 1; k < row; k++) {
                    if (y.get(i * row + k) > y.get(i * row + cls)) {
                        cls = k;
                    }
                }
            }
            w.set(i, weights.getOrDefault(cls, 1f));
        }
        return batch.withWeights(w);
    }
}

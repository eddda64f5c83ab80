package dev.brisk.nn;

import dev.brisk.tensor.Tensor;

/**
 * The arrays a fit trains on after Keras' {@code validation_split}: the first {@code floor(n * (1 - fraction))}
 * samples of every array (inputs, targets, sample weights) train, the rest validate, split before any shuffling.
 *
 * @param x the training inputs
 * @param y the training targets
 * @param weights the training samples' weights, or null
 * @param options the fit's options, with the held-out arrays as validation data when split
 */
record ArraySplit(Tensor[] x, Tensor[] y, Tensor weights, Fit options) {

    static ArraySplit of(String model, Tensor[] x, Tensor[] y, Fit options) {
        if (options.validationSplit == 0) {
            return new ArraySplit(x, y, options.sampleWeight, options);
        }
        if (options.hasValidation()) {
            throw new IllegalArgumentException("fit of model '" + model + "': Fit.validationSplit and validation "
                    + "data do not go together; give one");
        }
        if (x == null || x.length == 0 || x[0].shape().rank() == 0) {
            throw new IllegalArgumentException("fit of model '" + model + "': validationSplit needs input arrays");
        }
        int n = x[0].shape().dim(0);
        // The fraction as the decimal the caller wrote (0.2f is 0.2000000030 as a float): Keras computes
        // floor(n * (1 - 0.2)) in double, which for 60 samples is 48, where the float's widening would give 47.
        double fraction = Double.parseDouble(Float.toString(options.validationSplit));
        int at = (int) Math.floor(n * (1.0 - fraction));
        if (at < 1 || at >= n) {
            throw new IllegalArgumentException("fit of model '" + model + "': validationSplit(" + options.validationSplit
                    + ") of " + n + " samples leaves " + at + " to train on and " + (n - at) + " to validate on; both "
                    + "need at least one");
        }
        Fit f = options.copy();
        f.validationX = slices(x, at, n);
        f.validationY = slices(y, at, n);
        Tensor w = options.sampleWeight;
        // Weights per output, (samples, outputs), keep their columns; one array for all is read as (samples).
        Tensor rows = w == null || OutputWeights.perOutput(w) ? w : w.reshape(dev.brisk.tensor.Shape.of(w.size()));
        f.validationWeights = rows == null ? null : rows.slice(at, n);
        return new ArraySplit(slices(x, 0, at), slices(y, 0, at), rows == null ? null : rows.slice(0, at), f);
    }

    private static Tensor[] slices(Tensor[] ts, int from, int to) {
        Tensor[] out = new Tensor[ts.length];
        for (int i = 0; i < ts.length; i++) {
            if (ts[i].shape().rank() == 0 || ts[i].shape().dim(0) < to) {
                throw new IllegalArgumentException("validationSplit: every array needs the first input's samples,"
                        + " but one has shape " + ts[i].shape());
            }
            out[i] = ts[i].slice(from, to);
        }
        return out;
    }
}

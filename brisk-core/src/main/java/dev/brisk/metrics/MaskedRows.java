package dev.brisk.metrics;

import dev.brisk.tensor.DType;
import dev.brisk.tensor.Tensor;

/**
 * The rows of a batch that a padding mask keeps, copied out: predictions {@code [kept, width]} and targets
 * {@code [kept]} (one value a step, e.g. class ids) or {@code [kept, width]}.
 */
record MaskedRows(Tensor yTrue, Tensor yPred, int count) {
    /**
     * The rows of {@code yTrue} and {@code yPred} whose mask element is not zero.
     *
     * @throws IllegalArgumentException naming the metric and the shapes when the mask does not fit the batch
     */
    static MaskedRows of(String metric, Tensor yTrue, Tensor yPred, Tensor mask) {
        int steps = mask.size();
        int predWidth = width(metric, yPred, mask);
        int trueWidth = width(metric, yTrue, mask);
        int kept = 0;
        for (int i = 0; i < steps; i++) {
            if (mask.get(i) != 0) {
                kept++;
            }
        }
        if (kept == 0) {
            return new MaskedRows(null, null, 0);
        }
        float[] p = new float[kept * predWidth];
        boolean ints = yTrue.dtype() == DType.INT32;
        float[] t = ints ? null : new float[kept * trueWidth];
        int[] tInts = ints ? new int[kept * trueWidth] : null;
        int row = 0;
        for (int i = 0; i < steps; i++) {
            if (mask.get(i) == 0) {
                continue;
            }
            for (int j = 0; j < predWidth; j++) {
                p[row * predWidth + j] = yPred.get(i * predWidth + j);
            }
            for (int j = 0; j < trueWidth; j++) {
                if (ints) {
                    tInts[row * trueWidth + j] = yTrue.intAt(i * trueWidth + j);
                } else {
                    t[row * trueWidth + j] = yTrue.get(i * trueWidth + j);
                }
            }
            row++;
        }
        // Targets of one value a step stay a vector, as a batch of class ids is.
        int[] trueDims = trueWidth == 1 && yTrue.shape().rank() == mask.shape().rank()
                ? new int[] {kept} : new int[] {kept, trueWidth};
        Tensor keptTrue = ints ? Tensor.ofInts(tInts, trueDims) : Tensor.of(t, trueDims);
        return new MaskedRows(keptTrue, Tensor.of(p, kept, predWidth), kept);
    }

    /** Elements per step of {@code t}: its size over the mask's, which must divide it. */
    private static int width(String metric, Tensor t, Tensor mask) {
        if (mask.size() == 0 || t.size() % mask.size() != 0 || t.shape().rank() == 0
                || t.shape().dim(0) != mask.shape().dim(0)) {
            throw new IllegalArgumentException(metric + ": the mask " + mask.shape() + " does not fit the batch "
                    + t.shape());
        }
        return t.size() / mask.size();
    }
}

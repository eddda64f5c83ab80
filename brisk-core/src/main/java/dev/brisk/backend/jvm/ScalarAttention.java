package dev.brisk.backend.jvm;

import dev.brisk.ops.AttentionGeometry;

/**
 * The reference attention kernels ({@link ScalarKernels#attention}): one query row at a time, each dot product
 * summed in double, the formulas written out as they read. The vector kernels ({@link VectorAttention}) are tested
 * against these.
 */
final class ScalarAttention {
    private ScalarAttention() {
    }

    /** The forward pass: output rows and each row's score maximum and reciprocal sum of exponentials. */
    static void forward(AttentionGeometry g, float[] q, int qOff, float[] k, int kOff, float[] v, int vOff,
                        float[] mask, int maskOff, float[] out, int outOff, float[] stats, int statsOff) {
        int d = g.depth();
        int dv = g.valueDepth();
        double[] scores = new double[g.keys()];
        for (int b = 0; b < g.batch(); b++) {
            for (int h = 0; h < g.heads(); h++) {
                for (int i = 0; i < g.queries(); i++) {
                    int n = g.keysOf(i);
                    int qi = qOff + ((b * g.queries() + i) * g.heads() + h) * d;
                    double max = Double.NEGATIVE_INFINITY;
                    for (int j = 0; j < n; j++) {
                        double s = score(g, q, qi, k, kOff, mask, maskOff, b, h, i, j);
                        scores[j] = s;
                        max = Math.max(max, s);
                    }
                    double sum = 0;
                    for (int j = 0; j < n; j++) {
                        sum += Math.exp(scores[j] - max);
                    }
                    int st = statsOff + ((b * g.heads() + h) * g.queries() + i) * 2;
                    stats[st] = (float) max;
                    stats[st + 1] = (float) (1 / sum);
                    int oi = outOff + ((b * g.queries() + i) * g.heads() + h) * dv;
                    // The exponentials times the values, then divided by their sum once per output element, as the
                    // vector kernel does.
                    for (int c = 0; c < dv; c++) {
                        double acc = 0;
                        for (int j = 0; j < n; j++) {
                            acc += Math.exp(scores[j] - max) * v[vOff + ((b * g.keys() + j) * g.heads() + h) * dv + c];
                        }
                        out[oi + c] = (float) (acc / sum);
                    }
                }
            }
        }
    }

    /** The backward pass: the gradients of q, k and v, packed in that order from {@code gradsOff}. */
    static void backward(AttentionGeometry g, float[] q, int qOff, float[] k, int kOff, float[] v, int vOff,
                         float[] mask, int maskOff, float[] out, int outOff, float[] stats, int statsOff, float[] dOut,
                         int dOutOff, float[] grads, int gradsOff) {
        int d = g.depth();
        int dv = g.valueDepth();
        int dqOff = gradsOff;
        int dkOff = gradsOff + g.querySize();
        int dvOff = dkOff + g.keySize();
        java.util.Arrays.fill(grads, dkOff, dvOff + g.batch() * g.keys() * g.heads() * dv, 0f);
        for (int b = 0; b < g.batch(); b++) {
            for (int h = 0; h < g.heads(); h++) {
                for (int i = 0; i < g.queries(); i++) {
                    int n = g.keysOf(i);
                    int qi = qOff + ((b * g.queries() + i) * g.heads() + h) * d;
                    int oi = ((b * g.queries() + i) * g.heads() + h) * dv;
                    int st = statsOff + ((b * g.heads() + h) * g.queries() + i) * 2;
                    double rowDot = 0;
                    for (int c = 0; c < dv; c++) {
                        rowDot += (double) dOut[dOutOff + oi + c] * out[outOff + oi + c];
                    }
                    int dqi = dqOff + ((b * g.queries() + i) * g.heads() + h) * d;
                    for (int c = 0; c < d; c++) {
                        grads[dqi + c] = 0f;
                    }
                    for (int j = 0; j < n; j++) {
                        // The probability from the statistics the forward pass kept, as the vector kernel does.
                        double p = Math.exp(score(g, q, qi, k, kOff, mask, maskOff, b, h, i, j) - stats[st]) * stats[st + 1];
                        int kj = ((b * g.keys() + j) * g.heads() + h) * d;
                        int vj = ((b * g.keys() + j) * g.heads() + h) * dv;
                        double dp = 0;
                        for (int c = 0; c < dv; c++) {
                            dp += (double) dOut[dOutOff + oi + c] * v[vOff + vj + c];
                            grads[dvOff + vj + c] += (float) (p * dOut[dOutOff + oi + c]);
                        }
                        double ds = p * (dp - rowDot);
                        for (int c = 0; c < d; c++) {
                            grads[dqi + c] += (float) (ds * k[kOff + kj + c]);
                            grads[dkOff + kj + c] += (float) (ds * q[qi + c]);
                        }
                    }
                }
            }
        }
    }

    /** Query row {@code i}'s score of key {@code j} in head {@code h}: the dot product plus the mask (in float). */
    private static double score(AttentionGeometry g, float[] q, int qi, float[] k, int kOff, float[] mask,
                                int maskOff, int b, int h, int i, int j) {
        int d = g.depth();
        int kj = kOff + ((b * g.keys() + j) * g.heads() + h) * d;
        double s = 0;
        for (int c = 0; c < d; c++) {
            s += (double) q[qi + c] * k[kj + c];
        }
        if (mask == null) {
            return s;
        }
        // Added in float, as the graph it replaces does: a score plus -1e9 rounds to -1e9 itself, so a row that is
        // masked throughout gets equal scores and uniform probabilities (Keras' behaviour).
        int row = g.maskRows() == 1 ? 0 : i;
        return (float) s + mask[maskOff + (b * g.maskRows() + row) * g.keys() + j];
    }
}

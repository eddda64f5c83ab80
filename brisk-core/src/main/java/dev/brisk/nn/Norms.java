package dev.brisk.nn;

import dev.brisk.tensor.Tensor;
import java.util.function.DoubleUnaryOperator;

/** The slice-wise L2 norms the norm constraints ({@link Constraint#maxNorm}, {@link Constraint#unitNorm}) scale by. */
final class Norms {
    private Norms() {
    }

    /**
     * Multiplies every slice of {@code w} (the elements that share their indexes off {@code axes}) by
     * {@code factor(norm of the slice over axes)}, in place.
     */
    static void scale(Tensor w, int[] axes, String what, DoubleUnaryOperator factor) {
        int rank = w.shape().rank();
        boolean[] reduced = new boolean[rank];
        for (int a : axes) {
            int ax = a < 0 ? a + rank : a;
            if (ax < 0 || ax >= rank) {
                throw new IllegalArgumentException(what + ": axis " + a + " is out of range for a weight of shape "
                        + w.shape());
            }
            reduced[ax] = true;
        }
        int[] dims = w.shape().dims();
        // key of each element: its flat index over the kept axes
        int n = w.size();
        int[] key = new int[n];
        int keys = 1;
        for (int d = 0; d < rank; d++) {
            if (!reduced[d]) {
                keys *= dims[d];
            }
        }
        int[] idx = new int[rank];
        for (int i = 0; i < n; i++) {
            int k = 0;
            for (int d = 0; d < rank; d++) {
                if (!reduced[d]) {
                    k = k * dims[d] + idx[d];
                }
            }
            key[i] = k;
            for (int d = rank - 1; d >= 0; d--) {
                if (++idx[d] < dims[d]) {
                    break;
                }
                idx[d] = 0;
            }
        }
        double[] sums = new double[keys];
        for (int i = 0; i < n; i++) {
            double v = w.get(i);
            sums[key[i]] += v * v;
        }
        double[] f = new double[keys];
        for (int k = 0; k < keys; k++) {
            f[k] = factor.applyAsDouble(Math.sqrt(sums[k]));
        }
        for (int i = 0; i < n; i++) {
            w.set(i, (float) (w.get(i) * f[key[i]]));
        }
    }

    /** Keras records one axis as an int, several as a list. */
    static Object axisConfig(int[] axes) {
        if (axes.length == 1) {
            return axes[0];
        }
        return java.util.Arrays.stream(axes).boxed().toList();
    }
}

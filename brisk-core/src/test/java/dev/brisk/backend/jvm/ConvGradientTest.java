package dev.brisk.backend.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brisk.backend.Kernels;
import dev.brisk.ops.ConvGeometry;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The convolution gradients of both backends against central finite differences of the forward pass, for the
 * loss {@code L = sum(conv2d(x, w) * r)} with a random {@code r} (so {@code dL/dy = r}).
 */
class ConvGradientTest {
    private static final float H = 1e-2f;

    /** Strided, padded, rectangular kernels; several channels, and one (a path of its own in the vector kernels). */
    private static final ConvGeometry[] GEOMETRIES = {
        new ConvGeometry(2, 5, 6, 2, 3, 3, 3, 2, 1, 1, 1, 3, 6),
        new ConvGeometry(1, 6, 5, 3, 2, 3, 4, 1, 2, 0, 1, 5, 3),
        new ConvGeometry(2, 7, 6, 1, 3, 2, 2, 2, 1, 1, 0, 4, 5),
    };

    @Test
    void scalarGradientsMatchFiniteDifferences() {
        for (ConvGeometry g : GEOMETRIES) {
            check(new ScalarKernels(), g);
        }
    }

    @Test
    void vectorGradientsMatchFiniteDifferences() {
        for (ConvGeometry g : GEOMETRIES) {
            check(new VectorKernels(), g);
        }
    }

    private static void check(Kernels k, ConvGeometry g) {
        Random random = new Random(5);
        float[] x = Arrays2.uniform(random, g.batch() * g.height() * g.width() * g.channels(), -1, 1);
        float[] w = Arrays2.uniform(random, g.kernelH() * g.kernelW() * g.channels() * g.outChannels(), -1, 1);
        float[] r = Arrays2.uniform(random, g.batch() * g.outH() * g.outW() * g.outChannels(), -1, 1);
        float[] dx = new float[x.length];
        float[] dw = new float[w.length];
        k.conv2dBackwardInput(g, r, 0, w, 0, dx, 0);
        k.conv2dBackwardFilter(g, x, 0, r, 0, dw, 0);
        for (int i = 0; i < x.length; i++) {
            float saved = x[i];
            x[i] = saved + H;
            double plus = loss(k, g, x, w, r);
            x[i] = saved - H;
            double minus = loss(k, g, x, w, r);
            x[i] = saved;
            assertEquals((plus - minus) / (2 * H), dx[i], 2e-3, k.name() + " dx[" + i + "] for " + g);
        }
        for (int i = 0; i < w.length; i++) {
            float saved = w[i];
            w[i] = saved + H;
            double plus = loss(k, g, x, w, r);
            w[i] = saved - H;
            double minus = loss(k, g, x, w, r);
            w[i] = saved;
            assertEquals((plus - minus) / (2 * H), dw[i], 2e-3, k.name() + " dw[" + i + "] for " + g);
        }
    }

    private static double loss(Kernels k, ConvGeometry g, float[] x, float[] w, float[] r) {
        float[] y = new float[r.length];
        k.conv2d(g, x, 0, w, 0, y, 0);
        double sum = 0;
        for (int i = 0; i < y.length; i++) {
            sum += (double) y[i] * r[i];
        }
        return sum;
    }
}

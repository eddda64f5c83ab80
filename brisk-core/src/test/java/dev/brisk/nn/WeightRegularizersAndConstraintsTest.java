package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.losses.Losses;
import dev.brisk.nn.layers.Conv2D;
import dev.brisk.nn.layers.Dense;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bias and activity regularizers and the weight constraints of Dense and Conv2D, in training: one SGD step against
 * the written-out Keras rule (the loss plus {@code c |b|} plus {@code a sum(out^2) / batch}, then the constraint's
 * projection), and constraints that still hold after many large steps, compiled and eager.
 */
class WeightRegularizersAndConstraintsTest {
    private static final float[] X = {0.5f, -1f, 1.5f, 2f, -0.5f, 1f, 0.25f, 0.75f};
    private static final float[] Y = {1f, -2f, 0.5f, 3f};

    /**
     * Dense(1) on two inputs, batch of four, MSE; bias L1 {@code c}, activity L2 {@code a}; kernel NonNeg. One SGD
     * step from kernel (0.3, -0.2), bias 0.1 against Keras' rule computed here in double.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void oneStepFollowsKerasRule(boolean eager) {
        double c = 0.5;
        double a = 0.1;
        double lr = 0.05;
        Dense dense = new Dense(1, Activation.LINEAR, true, Initializer.zeros(), Initializer.zeros(), null, null);
        dense.biasRegularizer(Regularizer.l1((float) c)).kernelConstraint(Constraint.nonNeg())
                .activityRegularizer(Regularizer.l2((float) a));
        Model m = Sequential.of(Layers.input(2), dense);
        m.setWeights(List.of(Tensor.of(new float[] {0.3f, -0.2f}, 2, 1), Tensor.of(new float[] {0.1f}, 1)));
        m.compile(Optimizers.sgd((float) lr), Losses.meanSquaredError());
        m.runEagerly(eager);
        m.fit(Tensor.of(X, 4, 2), Tensor.of(Y, 4, 1), Fit.epochs(1).batchSize(4).verbose(0));
        double[] w = {0.3, -0.2};
        double b = 0.1;
        double[] gw = new double[2];
        double gb = Math.signum(b) * c;
        for (int i = 0; i < 4; i++) {
            double out = w[0] * X[2 * i] + w[1] * X[2 * i + 1] + b;
            double dOut = 2 * (out - Y[i]) / 4 + 2 * a * out / 4;
            gw[0] += dOut * X[2 * i];
            gw[1] += dOut * X[2 * i + 1];
            gb += dOut;
        }
        double w0 = Math.max(0, w[0] - lr * gw[0]);
        double w1 = Math.max(0, w[1] - lr * gw[1]);
        List<Tensor> after = m.getWeights();
        assertEquals(w0, after.get(0).get(0), 1e-6, "kernel[0]");
        assertEquals(w1, after.get(0).get(1), 1e-6, "kernel[1]: NonNeg clips it to 0");
        assertEquals(0.0, w1, 0.0, "the test's step must make kernel[1] negative before the projection");
        assertEquals(b - lr * gb, after.get(1).get(0), 1e-6, "bias");
    }

    private static Tensor[] images(int n) {
        SplittableRandom r = new SplittableRandom(4);
        float[] x = new float[n * 6 * 6 * 2];
        float[] y = new float[n * 3];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) (3 * r.nextGaussian());
        }
        for (int i = 0; i < y.length; i++) {
            y[i] = (float) (10 * r.nextGaussian());
        }
        return new Tensor[] {Tensor.of(x, n, 6, 6, 2), Tensor.of(y, n, 3)};
    }

    /** Large steps on large targets push every weight far; the constraints must still hold after each epoch. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void constraintsHoldAfterEveryStep(boolean eager) {
        Tensor[] xy = images(32);
        RandomSeed.set(6);
        Conv2D conv = Layers.conv2d(4, 3, Activation.RELU).kernelConstraint(Constraint.maxNorm(0.5f, 0, 1, 2))
                .biasConstraint(Constraint.nonNeg());
        Dense unit = Layers.dense(5).kernelConstraint(Constraint.unitNorm());
        Dense capped = Layers.dense(3).kernelConstraint(Constraint.maxNorm(1f));
        Model m = Sequential.of(Layers.input(6, 6, 2), conv, Layers.flatten(), unit, capped);
        m.compile(Optimizers.sgd(0.5f), Losses.meanSquaredError());
        m.runEagerly(eager);
        for (int epoch = 0; epoch < 3; epoch++) {
            m.fit(xy[0], xy[1], Fit.epochs(1).batchSize(8).seed(epoch).verbose(0));
            List<Tensor> w = m.getWeights();
            // conv kernel (3, 3, 2, 4): each filter's norm over the first three axes is at most 0.5
            Tensor k = w.get(0);
            for (int f = 0; f < 4; f++) {
                double sq = 0;
                for (int i = f; i < k.size(); i += 4) {
                    sq += (double) k.get(i) * k.get(i);
                }
                assertTrue(Math.sqrt(sq) <= 0.5 + 1e-5, "conv filter " + f + " norm " + Math.sqrt(sq));
            }
            for (int i = 0; i < w.get(1).size(); i++) {
                assertTrue(w.get(1).get(i) >= 0, "conv bias " + i + " is negative: " + w.get(1).get(i));
            }
            assertColumnNorms(w.get(2), 1.0, true, "unitNorm dense");
            assertColumnNorms(w.get(4), 1.0, false, "maxNorm dense");
        }
    }

    /** Each column's (unit's) norm over the rows: equal to {@code bound}, or at most it. */
    private static void assertColumnNorms(Tensor k, double bound, boolean equal, String what) {
        int cols = k.shape().dim(1);
        for (int c = 0; c < cols; c++) {
            double sq = 0;
            for (int i = c; i < k.size(); i += cols) {
                sq += (double) k.get(i) * k.get(i);
            }
            double norm = Math.sqrt(sq);
            if (equal) {
                assertEquals(bound, norm, 1e-5, what + " column " + c);
            } else {
                assertTrue(norm <= bound + 1e-5, what + " column " + c + " norm " + norm);
            }
        }
    }

    @Test
    void settingsAfterBuildAreRefusedAndBadAxesNamed() {
        Dense d = Layers.dense(2);
        Sequential.of(Layers.input(3), d);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> d.biasRegularizer(Regularizer.l1(0.1f)));
        assertTrue(e.getMessage().contains("before the layer is built"), e.getMessage());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> Constraint.maxNorm(1f, 3).apply(Tensor.zeros(2, 2)));
        assertTrue(bad.getMessage().contains("MaxNorm: axis 3"), bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Constraint.maxNorm(0f));
    }
}

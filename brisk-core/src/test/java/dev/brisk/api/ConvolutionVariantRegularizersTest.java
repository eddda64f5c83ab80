package dev.brisk.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static dev.brisk.api.TestData.gaussian;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.losses.Losses;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Constraint;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Initializer;
import dev.brisk.nn.Layer;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Regularizer;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Conv2DTranspose;
import dev.brisk.nn.layers.DepthwiseConv2D;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.Padding;
import dev.brisk.nn.layers.SeparableConv2D;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Keras' regularizers and constraints on Conv2DTranspose, DepthwiseConv2D and SeparableConv2D: each weight's penalty
 * joins the loss as Keras' formula ({@code l2 sum(w^2)}, {@code l1 sum(|w|)}), and each constrained weight is
 * projected after every step.
 */
class ConvolutionVariantRegularizersTest {
    private static final Tensor X = gaussian(1, 4, 5, 5, 2);

    private static double lossOf(Layer layer, List<Tensor> weights, Tensor y) {
        Model m = Sequential.of(Layers.input(5, 5, 2), layer);
        m.setWeights(weights);
        m.compile(Optimizers.sgd(0.1f), Losses.meanSquaredError());
        return m.evaluate(X, y, 4).get("loss");
    }

    /** Adds Keras' penalty of each regularized weight of {@code weights} (by index) to the plain loss. */
    private static void check(String what, Function<Boolean, Layer> make, double[] l2, double[] l1) {
        RandomSeed.set(3);
        Layer plain = make.apply(false);
        Model probe = Sequential.of(Layers.input(5, 5, 2), plain);
        List<Tensor> w = probe.getWeights();
        Tensor y = gaussian(2, probe.predict(X, 4).shape().dims());
        double expected = lossOf(make.apply(false), w, y);
        for (int i = 0; i < w.size(); i++) {
            for (int j = 0; j < w.get(i).size(); j++) {
                double v = w.get(i).get(j);
                expected += l2[i] * v * v + l1[i] * Math.abs(v);
            }
        }
        double actual = lossOf(make.apply(true), w, y);
        assertEquals(expected, actual, 1e-5 * Math.abs(expected), what);
        assertTrue(actual > lossOf(make.apply(false), w, y) + 1e-3, what + ": the penalty must matter");
    }

    @Test
    void penaltiesJoinTheLossAsKeras() {
        Regularizer r2 = Regularizer.l2(0.1f);
        Regularizer r1 = Regularizer.l1(0.2f);
        // kernel l2 (constructor), bias l1, both on the second weight ... as each layer names them
        check("Conv2DTranspose", on -> {
            Conv2DTranspose t = new Conv2DTranspose(3, 3, 3, 2, 2, Padding.SAME, Activation.LINEAR, true,
                    Initializer.glorotUniform(), Initializer.randomNormal(0, 0.5f), on ? r2 : null, null);
            return on ? t.biasRegularizer(r1) : t;
        }, new double[] {0.1, 0}, new double[] {0, 0.2});
        check("DepthwiseConv2D", on -> {
            DepthwiseConv2D d = new DepthwiseConv2D(3, 3, 1, 1, 1, 1, 2, Padding.SAME, Activation.LINEAR, true,
                    Initializer.glorotUniform(), Initializer.randomNormal(0, 0.5f), on ? r2 : null, null);
            return on ? d.biasRegularizer(r1) : d;
        }, new double[] {0.1, 0}, new double[] {0, 0.2});
        check("SeparableConv2D", on -> {
            SeparableConv2D s = new SeparableConv2D(3, 3, 3, 1, 1, 1, 1, 1, Padding.SAME, Activation.LINEAR, true,
                    Initializer.glorotUniform(), Initializer.glorotUniform(), Initializer.randomNormal(0, 0.5f), null);
            return on ? s.depthwiseRegularizer(r2).pointwiseRegularizer(r1).biasRegularizer(r1) : s;
        }, new double[] {0.1, 0, 0}, new double[] {0, 0.2, 0.2});
    }

    @Test
    void constraintsHoldAfterEveryStep() {
        RandomSeed.set(4);
        Conv2DTranspose t = Layers.conv2dTranspose(3, 3, 2, Padding.SAME, Activation.LINEAR)
                .kernelConstraint(Constraint.nonNeg()).biasConstraint(Constraint.nonNeg());
        DepthwiseConv2D d = Layers.depthwiseConv2d(3, 1, Padding.SAME, 1, Activation.LINEAR)
                .depthwiseConstraint(Constraint.nonNeg()).biasConstraint(Constraint.nonNeg());
        SeparableConv2D s = Layers.separableConv2d(2, 3, 1, Padding.SAME, Activation.LINEAR)
                .depthwiseConstraint(Constraint.nonNeg()).pointwiseConstraint(Constraint.nonNeg())
                .biasConstraint(Constraint.nonNeg());
        Model m = Sequential.of(Layers.input(5, 5, 2), t, d, s);
        m.compile(Optimizers.sgd(0.5f), Losses.meanSquaredError());
        Tensor y = gaussian(5, 4, 10, 10, 2);
        int weights = 0;
        for (int epoch = 0; epoch < 2; epoch++) {
            m.fit(X, y, Fit.epochs(1).batchSize(4).verbose(0));
            for (Tensor w : m.getWeights()) {
                weights++;
                for (int i = 0; i < w.size(); i++) {
                    assertTrue(w.get(i) >= 0, "weight " + weights + " element " + i + " = " + w.get(i));
                }
            }
        }
        assertEquals(14, weights);
    }
}

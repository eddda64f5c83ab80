package dev.brisk.keras;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brisk.losses.Losses;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Constraint;
import dev.brisk.nn.Layer;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Regularizer;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.Padding;
import dev.brisk.optimizers.Optimizers;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The regularizers and constraints of Conv2DTranspose, DepthwiseConv2D and SeparableConv2D are written under Keras'
 * names and come back from a {@code .keras} file.
 */
class ConvolutionRegularizersRoundTripTest {
    @TempDir
    Path dir;

    @Test
    void regularizersAndConstraintsRoundTrip() throws IOException {
        RandomSeed.set(8);
        Model m = Sequential.of(Layers.input(6, 6, 2),
                Layers.conv2dTranspose(3, 3, 2, Padding.SAME, Activation.RELU).biasRegularizer(Regularizer.l1(0.01f))
                        .kernelConstraint(Constraint.maxNorm(2f)).biasConstraint(Constraint.nonNeg())
                        .activityRegularizer(Regularizer.l2(0.02f)),
                Layers.depthwiseConv2d(3, 1, Padding.SAME, 2, Activation.LINEAR).biasRegularizer(Regularizer.l2(0.1f))
                        .depthwiseConstraint(Constraint.unitNorm()).biasConstraint(Constraint.nonNeg()),
                Layers.separableConv2d(4, 3, 1, Padding.VALID, Activation.LINEAR)
                        .depthwiseRegularizer(Regularizer.l2(0.3f)).pointwiseRegularizer(Regularizer.l1(0.4f))
                        .biasRegularizer(Regularizer.l1l2(0.1f, 0.2f)).depthwiseConstraint(Constraint.nonNeg())
                        .pointwiseConstraint(Constraint.maxNorm(3f)).biasConstraint(Constraint.nonNeg()));
        m.compile(Optimizers.sgd(0.1f), Losses.meanSquaredError());
        Path file = dir.resolve("regularized.keras");
        KerasModels.save(m, file);
        Model loaded = KerasModels.load(file);
        List<String> keys = List.of("kernel_regularizer", "bias_regularizer", "activity_regularizer",
                "kernel_constraint", "bias_constraint", "depthwise_regularizer", "pointwise_regularizer",
                "depthwise_constraint", "pointwise_constraint");
        int set = 0;
        for (int i = 0; i < m.layers().size(); i++) {
            Layer a = m.layers().get(i);
            Map<String, Object> ca = a.kerasConfig();
            Map<String, Object> cb = loaded.layers().get(i).kerasConfig();
            for (String k : keys) {
                if (ca.containsKey(k)) {
                    assertEquals(String.valueOf(ca.get(k)), String.valueOf(cb.get(k)), a.name() + " " + k);
                    set += ca.get(k) == null ? 0 : 1;
                }
            }
        }
        assertEquals(13, set, "options set on the three layers (4 + 3 + 6)");
    }
}

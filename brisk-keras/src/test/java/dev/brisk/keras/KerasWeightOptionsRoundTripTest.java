package dev.brisk.keras;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
import dev.brisk.nn.layers.Conv2D;
import dev.brisk.nn.layers.Dense;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Initializers, regularizers and constraints save under Keras' class names and configs and load back into the same
 * layers, which then train on exactly as the originals (the constraints and penalties are in force after loading).
 */
class KerasWeightOptionsRoundTripTest {
    @TempDir
    Path dir;

    private static Model model() {
        RandomSeed.set(2);
        Conv2D conv = new Conv2D(3, 3, 3, 1, 1, dev.brisk.nn.layers.Padding.VALID, Activation.RELU, true,
                Initializer.heUniform(), Initializer.zeros(), Regularizer.l1(1e-3f), null)
                .kernelConstraint(Constraint.unitNorm(0, 1, 2)).biasRegularizer(Regularizer.l2(1e-2f));
        Dense hidden = new Dense(4, Activation.TANH, true, Initializer.glorotNormal().seeded(5),
                Initializer.randomNormal(0f, 0.05f), Regularizer.l1l2(1e-3f, 1e-2f), null)
                .biasRegularizer(Regularizer.l1(1e-2f)).kernelConstraint(Constraint.maxNorm(2f, 0))
                .biasConstraint(Constraint.nonNeg());
        hidden.activityRegularizer(Regularizer.l1l2(1e-3f, 2e-3f));
        Dense out = new Dense(1, Activation.LINEAR, true, Initializer.varianceScaling(0.5f, "fan_avg", "uniform"),
                Initializer.truncatedNormal(0f, 0.1f), null, null);
        return Sequential.of(Layers.input(5, 5, 1), conv, Layers.flatten(), hidden, Layers.dense(3,
                Activation.LINEAR).kernelConstraint(Constraint.nonNeg()), out);
    }

    @Test
    void configsSaveLoadAndTrainOnExactly() throws IOException {
        SplittableRandom r = new SplittableRandom(1);
        float[] x = new float[16 * 25];
        float[] y = new float[16];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) r.nextGaussian();
        }
        for (int i = 0; i < y.length; i++) {
            y[i] = (float) r.nextGaussian();
        }
        Tensor xs = Tensor.of(x, 16, 5, 5, 1);
        Tensor ys = Tensor.of(y, 16, 1);
        Model original = model();
        original.compile(Optimizers.sgd(0.05f), Losses.meanSquaredError());
        original.fit(xs, ys, Fit.epochs(1).batchSize(8).seed(1).verbose(0));
        Path file = dir.resolve("options.keras");
        KerasModels.save(original, file);
        Model loaded = KerasModels.load(file);
        for (int i = 0; i < original.layers().size(); i++) {
            Layer a = original.layers().get(i);
            Layer b = loaded.layers().get(i);
            assertEquals(Json.plain(a.kerasConfig()), Json.plain(b.kerasConfig()), a.name());
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> hidden = (Map<String, Object>) Json.plain(original.layers().stream()
                .filter(l -> l.activityRegularizer() != null).findFirst().orElseThrow().kerasConfig());
        assertTrue(hidden.toString().contains("class_name=MaxNorm"), hidden.toString());
        assertTrue(hidden.toString().contains("class_name=NonNeg"), hidden.toString());
        assertTrue(hidden.toString().contains("class_name=L1L2"), hidden.toString());
        assertTrue(hidden.toString().contains("class_name=GlorotNormal"), hidden.toString());
        assertTrue(hidden.toString().contains("module=keras.constraints"), hidden.toString());
        original.fit(xs, ys, Fit.epochs(2).batchSize(8).seed(2).verbose(0));
        loaded.fit(xs, ys, Fit.epochs(2).batchSize(8).seed(2).verbose(0));
        List<Tensor> wa = original.getWeights();
        List<Tensor> wb = loaded.getWeights();
        for (int i = 0; i < wa.size(); i++) {
            assertArrayEquals(wa.get(i).toArray(), wb.get(i).toArray(), "weight " + i);
        }
    }
}

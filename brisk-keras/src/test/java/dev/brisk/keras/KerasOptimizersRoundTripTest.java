package dev.brisk.keras;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brisk.losses.Losses;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.ops.Variable;
import dev.brisk.optimizers.Adadelta;
import dev.brisk.optimizers.Adagrad;
import dev.brisk.optimizers.Adam;
import dev.brisk.optimizers.Adamax;
import dev.brisk.optimizers.Ftrl;
import dev.brisk.optimizers.Lion;
import dev.brisk.optimizers.Nadam;
import dev.brisk.optimizers.Optimizer;
import dev.brisk.optimizers.RmsProp;
import dev.brisk.optimizers.Sgd;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every optimizer saves to a {@code .keras} file under Keras' class name and config, with its variables in Keras'
 * order, and a loaded model's optimizer continues exactly as the original's.
 */
class KerasOptimizersRoundTripTest {
    @TempDir
    Path dir;

    private static Tensor[] data() {
        SplittableRandom r = new SplittableRandom(9);
        float[] x = new float[48 * 3];
        float[] y = new float[48];
        for (int i = 0; i < 48; i++) {
            for (int j = 0; j < 3; j++) {
                x[i * 3 + j] = (float) r.nextGaussian();
            }
            y[i] = x[i * 3] - 0.5f * x[i * 3 + 2];
        }
        return new Tensor[] {Tensor.of(x, 48, 3), Tensor.of(y, 48, 1)};
    }

    private void roundTrip(Optimizer opt, String className) throws IOException {
        Tensor[] xy = data();
        RandomSeed.set(3);
        Model original = Sequential.of(Layers.input(3), Layers.dense(5, Activation.TANH), Layers.dense(1));
        original.compile(opt, Losses.meanSquaredError());
        original.fit(xy[0], xy[1], Fit.epochs(2).batchSize(16).seed(2).verbose(0));
        Path file = dir.resolve(opt.name() + ".keras");
        KerasModels.save(original, file);
        try (ZipFile zip = new ZipFile(file.toFile())) {
            Map<String, Object> config = Json.parseObject(zip.getInputStream(zip.getEntry("config.json"))
                    .readAllBytes());
            @SuppressWarnings("unchecked")
            Map<String, Object> compile = (Map<String, Object>) config.get("compile_config");
            @SuppressWarnings("unchecked")
            Map<String, Object> o = (Map<String, Object>) compile.get("optimizer");
            assertEquals(className, o.get("class_name"), opt.name());
        }
        Model loaded = KerasModels.load(file);
        Optimizer back = loaded.optimizer();
        assertEquals(opt.getClass(), back.getClass());
        assertEquals(opt.name(), back.name());
        assertEquals(opt.ownConfig(), back.ownConfig());
        assertEquals(opt.clipValueValue(), back.clipValueValue());
        assertEquals(opt.iterations(), back.iterations());
        List<Variable> a = opt.stateVariables(original.trainableVariables());
        List<Variable> b = back.stateVariables(loaded.trainableVariables());
        assertEquals(a.size(), b.size());
        for (int i = 0; i < a.size(); i++) {
            assertArrayEquals(a.get(i).value().toArray(), b.get(i).value().toArray(), opt.name() + " " + a.get(i));
        }
        original.fit(xy[0], xy[1], Fit.epochs(1).batchSize(16).seed(4).verbose(0));
        loaded.fit(xy[0], xy[1], Fit.epochs(1).batchSize(16).seed(4).verbose(0));
        List<Tensor> wa = original.getWeights();
        List<Tensor> wb = loaded.getWeights();
        for (int i = 0; i < wa.size(); i++) {
            assertArrayEquals(wa.get(i).toArray(), wb.get(i).toArray(), opt.name() + " weight " + i);
        }
    }

    @Test
    void everyOptimizerSavesLoadsAndContinuesExactly() throws IOException {
        roundTrip(new Adagrad(0.05f, 0.2f, 1e-6f, 0f), "Adagrad");
        roundTrip(new Sgd(0.05f, 0.9f, true, 0.01f), "SGD");
        roundTrip(new Ftrl(0.05f, -0.5f, 0.1f, 0.001f, 0.01f, 0.02f, 0.1f, 0.01f), "Ftrl");
        roundTrip(new Adadelta(1f, 0.9f, 1e-6f, 0.01f), "Adadelta");
        roundTrip(new Adamax(0.01f, 0.8f, 0.99f, 1e-7f, 0f), "Adamax");
        roundTrip(new Nadam(0.01f, 0.9f, 0.999f, 1e-7f, 0.004f), "Nadam");
        roundTrip(new Lion(0.002f, 0.9f, 0.99f, 0f).clipValue(0.5f), "Lion");
        roundTrip(new Adam(0.01f, 0.9f, 0.999f, 1e-7f, 0f, true), "Adam");
        roundTrip(new RmsProp(0.003f, 0.9f, 0.5f, 1e-7f, true, 0f), "RMSprop");
        roundTrip(new RmsProp(0.003f, 0.9f, 0f, 1e-7f, false, 0f).clipNorm(1f), "RMSprop");
    }
}

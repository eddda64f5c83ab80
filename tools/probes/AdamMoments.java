import dev.brisk.backend.Backends;
import dev.brisk.backend.Kernels;
import dev.brisk.data.FashionMnist;
import dev.brisk.data.InMemoryDataset;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Fit;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.ops.Variable;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.tensor.Tensor;
import java.util.Arrays;
import java.util.Map;

/**
 * Trains W1 (the reference MLP) on one thread, and after each epoch prints what its Adam moments hold (zeros,
 * denormals, values too small for the next products) and times one Adam step over the first layer's real state,
 * with its last gradient and with that gradient's zeros replaced (BENCHMARKS.md, "Denormal moments").
 *
 *     java --add-modules jdk.incubator.vector -cp brisk-cli/target/brisk-cli-all.jar tools/probes/AdamMoments.java 6
 */
public final class AdamMoments {
    public static void main(String[] args) throws Exception {
        int epochs = args.length > 0 ? Integer.parseInt(args[0]) : 6;
        ThreadBudget.set(1);
        RandomSeed.set(1);
        InMemoryDataset train = FashionMnist.load().train().flatten();
        Sequential model = Sequential.of(Layers.input(28 * 28), Layers.dense(512, Activation.RELU),
                Layers.dense(512, Activation.RELU), Layers.dense(10));
        model.compile(Optimizers.adam(1e-3f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        for (int epoch = 1; epoch <= epochs; epoch++) {
            model.fit(train, Fit.epochs(1).batchSize(128).verbose(0));
            model.captureGradientsOfNextStep();
            model.fit(train.slice(0, 128), Fit.epochs(1).batchSize(128).verbose(0));
            System.out.println("after epoch " + epoch);
            Map<String, Tensor> gradients = model.capturedGradients();
            for (Variable slot : model.optimizer().slotVariables()) {
                if (slot.value().size() >= 10_000) {
                    System.out.println("  " + slot.name() + ": " + census(slot.value()));
                }
            }
            Tensor g = gradients.get("dense/kernel");
            System.out.println("  gradient dense/kernel: " + census(g));
            float[] m = values(slot(model, "dense/kernel/m"));
            float[] v = values(slot(model, "dense/kernel/v"));
            float[] grad = values(g);
            float[] noZeros = grad.clone();
            for (int i = 0; i < noZeros.length; i++) {
                if (noZeros[i] == 0) {
                    noZeros[i] = 1e-4f;
                }
            }
            System.out.printf("  one Adam step over dense/kernel: %.1f us with its gradient, %.1f us with its zeros"
                    + " replaced%n", adamMicros(m, v, grad), adamMicros(m, v, noZeros));
        }
    }

    private static Tensor slot(Sequential model, String name) {
        return model.optimizer().slotVariables().stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow().value();
    }

    private static float[] values(Tensor t) {
        return Arrays.copyOfRange(t.data(), t.offset(), t.offset() + (int) t.size());
    }

    /** Median of 200 steps on copies of the state (the copies evolve from step to step, as in training). */
    private static double adamMicros(float[] m0, float[] v0, float[] g) {
        Kernels k = Backends.get();
        float[] p = new float[g.length];
        Arrays.fill(p, 0.05f);
        float[] m = m0.clone();
        float[] v = v0.clone();
        long[] nanos = new long[200];
        for (int r = 0; r < nanos.length; r++) {
            long start = System.nanoTime();
            k.adamStep(p, 0, g, 0, m, 0, v, 0, g.length, 1e-3f, 0.9f, 0.999f, 1e-7f, 0f);
            nanos[r] = System.nanoTime() - start;
        }
        Arrays.sort(nanos);
        return nanos[nanos.length / 2] / 1e3;
    }

    private static String census(Tensor t) {
        int zero = 0;
        int denormal = 0;
        int belowNextProducts = 0;
        float[] d = t.data();
        for (int i = 0; i < t.size(); i++) {
            float x = Math.abs(d[t.offset() + i]);
            if (x == 0) {
                zero++;
            } else if (x < Float.MIN_NORMAL) {
                denormal++;
            } else if (x < Float.MIN_NORMAL / (0.9f * 1e-3f)) {
                belowNextProducts++;
            }
        }
        return String.format("%d values, %d zero, %d denormal, %d under MIN_NORMAL / (beta1 * lr)", t.size(), zero,
                denormal, belowNextProducts);
    }
}

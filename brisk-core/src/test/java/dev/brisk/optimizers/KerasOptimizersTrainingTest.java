package dev.brisk.optimizers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.History;
import dev.brisk.losses.Losses;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.tensor.Tensor;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The newer optimizers train a small regression model through {@code fit}: compiled and eager give the same weights,
 * the loss falls, and {@code clipvalue} clips each gradient element as Keras does.
 */
class KerasOptimizersTrainingTest {
    private static Tensor[] data() {
        Random r = new Random(3);
        float[] x = new float[64 * 4];
        float[] y = new float[64];
        for (int i = 0; i < 64; i++) {
            double sum = 0;
            for (int j = 0; j < 4; j++) {
                x[i * 4 + j] = (float) r.nextGaussian();
                sum += (j + 1) * 0.3 * x[i * 4 + j];
            }
            y[i] = (float) Math.tanh(sum);
        }
        return new Tensor[] {Tensor.of(x, 64, 4), Tensor.of(y, 64, 1)};
    }

    private static Model trained(Optimizer opt, boolean eager, History[] history) {
        Tensor[] xy = data();
        RandomSeed.set(5);
        Model m = Sequential.of(Layers.input(4), Layers.dense(8, Activation.TANH), Layers.dense(1));
        m.compile(opt, Losses.meanSquaredError());
        m.runEagerly(eager);
        history[0] = m.fit(xy[0], xy[1], Fit.epochs(6).batchSize(16).seed(1).verbose(0));
        return m;
    }

    private static void compiledEqualsEagerAndLearns(String what, Supplier<Optimizer> make) {
        History[] h = new History[1];
        Model compiled = trained(make.get(), false, h);
        List<Double> loss = h[0].get("loss");
        assertTrue(loss.get(loss.size() - 1) < 0.9 * loss.get(0), what + ": the loss did not fall: " + loss);
        Model eager = trained(make.get(), true, h);
        List<Tensor> a = compiled.getWeights();
        List<Tensor> b = eager.getWeights();
        for (int i = 0; i < a.size(); i++) {
            for (int j = 0; j < a.get(i).size(); j++) {
                double x = a.get(i).get(j);
                assertEquals(x, b.get(i).get(j), 1e-4 * Math.max(1, Math.abs(x)), what + ": weight " + i + "[" + j
                        + "] compiled vs eager");
            }
        }
    }

    @Test
    void compiledAndEagerAgreeAndTheLossFalls() {
        compiledEqualsEagerAndLearns("adagrad", () -> Optimizers.adagrad(0.1f));
        compiledEqualsEagerAndLearns("adadelta", () -> Optimizers.adadelta(1f));
        compiledEqualsEagerAndLearns("adamax", () -> Optimizers.adamax(0.02f));
        compiledEqualsEagerAndLearns("nadam", () -> Optimizers.nadam(0.01f));
        compiledEqualsEagerAndLearns("lion", () -> Optimizers.lion(0.01f));
        compiledEqualsEagerAndLearns("amsgrad", () -> Optimizers.amsgrad(0.01f));
        compiledEqualsEagerAndLearns("rmsprop centred momentum",
                () -> Optimizers.rmsprop(0.003f, 0.9f, 0.5f, 1e-7f, true));
        compiledEqualsEagerAndLearns("ftrl", () -> Optimizers.ftrl(0.1f));
        compiledEqualsEagerAndLearns("ftrl l1 l2 shrinkage beta weight decay",
                () -> new Ftrl(0.1f, -0.5f, 0.1f, 1e-3f, 1e-3f, 1e-3f, 0.1f, 0.01f));
        compiledEqualsEagerAndLearns("sgd nesterov weight decay", () -> new Sgd(0.05f, 0.9f, true, 0.01f));
        compiledEqualsEagerAndLearns("nadam weight decay clipvalue",
                () -> new Nadam(0.01f, 0.9f, 0.999f, 1e-7f, 0.01f).clipValue(0.5f));
    }

    /** One SGD step on {@code w x + b} with x = 1, target 0: the gradient 2 (w + b) is clipped to the value. */
    @Test
    void clipValueClipsEachGradientElement() {
        for (float clip : new float[] {0.3f, 10f}) {
            Model m = Sequential.of(Layers.input(1), Layers.dense(1));
            m.setWeights(List.of(Tensor.of(new float[] {0.5f}, 1, 1), Tensor.of(new float[] {0.25f}, 1)));
            m.compile(Optimizers.sgd(0.1f).clipValue(clip), Losses.meanSquaredError());
            m.fit(Tensor.of(new float[] {1}, 1, 1), Tensor.of(new float[] {0}, 1, 1), Fit.epochs(1).batchSize(1)
                    .verbose(0));
            double g = Math.min(2 * (0.5 + 0.25), clip);
            assertEquals(0.5 - 0.1 * g, m.getWeights().get(0).get(0), 1e-6, "kernel, clipvalue " + clip);
            assertEquals(0.25 - 0.1 * g, m.getWeights().get(1).get(0), 1e-6, "bias, clipvalue " + clip);
        }
    }

    @Test
    void onlyOneKindOfClippingAsInKeras() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Optimizers.adam().clipNorm(1f).clipValue(0.5f));
        assertTrue(e.getMessage().contains("only one of clipnorm, clipvalue and global_clipnorm"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Optimizers.sgd(0.1f).clipValue(-1f));
        assertThrows(IllegalArgumentException.class, () -> new Lion(0.1f, 0f, 0.99f, 0f));
        assertThrows(IllegalArgumentException.class, () -> new Adagrad(0.1f, -1f, 1e-7f, 0f));
        assertThrows(IllegalArgumentException.class, () -> Optimizers.rmsprop(0.1f, 0.9f, 1f, 1e-7f, false));
        assertThrows(IllegalArgumentException.class, () -> new Nadam(0.1f, 0.9f, 0.999f, 1e-7f, -0.1f));
        assertThrows(IllegalArgumentException.class, () -> new Sgd(0.1f, 0f, false, -0.1f));
        IllegalArgumentException power = assertThrows(IllegalArgumentException.class,
                () -> new Ftrl(0.1f, 0.5f, 0.1f, 0f, 0f, 0f, 0f, 0f));
        assertTrue(power.getMessage().contains("learning_rate_power"), power.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Ftrl(0.1f, -0.5f, 0.1f, -1f, 0f, 0f, 0f, 0f));
    }

    /** Keras stores optimizer variables by add_optimizer_variables call: Nadam's momenta, then velocities. */
    @Test
    void stateVariablesFollowKerasOrder() {
        dev.brisk.ops.Variable a = new dev.brisk.ops.Variable("a", Tensor.zeros(2), true);
        dev.brisk.ops.Variable b = new dev.brisk.ops.Variable("b", Tensor.zeros(3), true);
        assertEquals(List.of("a/momentum", "b/momentum", "a/velocity", "b/velocity", "nadam/u_product"),
                Optimizers.nadam(0.1f).stateVariables(List.of(a, b)).stream().map(v -> v.name()).toList());
        assertEquals(List.of("a/m", "a/v", "b/m", "b/v", "a/velocity_hat", "b/velocity_hat"),
                Optimizers.amsgrad(0.1f).stateVariables(List.of(a, b)).stream().map(v -> v.name()).toList());
        assertEquals(List.of("a/velocity", "b/velocity", "a/momentum", "b/momentum", "a/average_gradient",
                "b/average_gradient"), Optimizers.rmsprop(0.1f, 0.9f, 0.5f, 1e-7f, true)
                .stateVariables(List.of(a, b)).stream().map(v -> v.name()).toList());
        assertEquals(List.of("a/accumulated_grad", "a/accumulated_delta_var", "b/accumulated_grad",
                "b/accumulated_delta_var"), Optimizers.adadelta(1f).stateVariables(List.of(a, b)).stream()
                .map(v -> v.name()).toList());
        // Adagrad's accumulator starts at initial_accumulator_value
        assertEquals(0.1f, Optimizers.adagrad(0.1f).slotsOf(a).get(0).value().get(1));
        // Nadam's u_product follows the step count when it is set (a restored checkpoint)
        Nadam nadam = Optimizers.nadam(0.1f);
        nadam.setIterations(2);
        double u1 = 0.9 * (1 - 0.5 * 0.96);
        double u2 = 0.9 * (1 - 0.5 * 0.96 * 0.96);
        assertEquals(u1 * u2, nadam.ownVariables().get(0).value().get(0), 1e-7);
    }
}

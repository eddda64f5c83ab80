package dev.brisk.numerics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brisk.backend.Kernels;
import dev.brisk.graph.Graph;
import dev.brisk.numerics.TorchFixturesTest.Fixture;
import dev.brisk.ops.Node;
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
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The optimizers of {@code tools/fixtures/make_optimizer_fixtures.py} against Keras 3's update rules written out in
 * float64, and against torch.optim where torch 1.13 has them: Adadelta and RMSprop's momentum are the same rule in
 * both; Adagrad, Adamax, AMSGrad and RMSprop place epsilon differently (the torch results agree within the
 * fixtures' tolerance); Nadam is checked against Keras only (torch 1.13's NAdam counts one momentum-cache factor
 * twice), and Lion, Ftrl (both not in torch 1.13) and SGD with Keras' decoupled weight decay (torch's is an L2 term
 * in the gradient) against Keras only; those three fixtures carry their own weight decay. Five steps each, on the
 * default and scalar kernels; the parameter and every slot (named as Keras names them) after each step.
 */
class KerasOptimizerFixturesTest {
    /** Makes the fixture's optimizer with a decoupled weight decay. */
    private static Optimizer make(Fixture fx, float weightDecay) {
        float lr = (float) fx.num("learning_rate");
        float wd = fx.root().has("weight_decay") ? (float) fx.num("weight_decay") : weightDecay;
        return switch (fx.name()) {
            case "opt_sgd_weight_decay" -> new Sgd(lr, (float) fx.num("momentum"),
                    fx.root().get("nesterov").asBoolean(), wd);
            case "opt_ftrl", "opt_ftrl_power" -> new Ftrl(lr, (float) fx.num("learning_rate_power"),
                    (float) fx.num("initial_accumulator_value"), (float) fx.num("l1_regularization_strength"),
                    (float) fx.num("l2_regularization_strength"),
                    (float) fx.num("l2_shrinkage_regularization_strength"), (float) fx.num("beta"), wd);
            case "opt_adagrad" -> new Adagrad(lr, (float) fx.num("initial_accumulator_value"),
                    (float) fx.num("epsilon"), weightDecay);
            case "opt_adadelta" -> new Adadelta(lr, (float) fx.num("rho"), (float) fx.num("epsilon"), weightDecay);
            case "opt_adamax" -> new Adamax(lr, (float) fx.num("beta_1"), (float) fx.num("beta_2"),
                    (float) fx.num("epsilon"), weightDecay);
            case "opt_nadam" -> new Nadam(lr, (float) fx.num("beta_1"), (float) fx.num("beta_2"),
                    (float) fx.num("epsilon"), weightDecay);
            case "opt_lion" -> new Lion(lr, (float) fx.num("beta_1"), (float) fx.num("beta_2"), weightDecay);
            case "opt_amsgrad" -> new Adam(lr, (float) fx.num("beta_1"), (float) fx.num("beta_2"),
                    (float) fx.num("epsilon"), weightDecay, true);
            default -> new RmsProp(lr, (float) fx.num("rho"), (float) fx.num("momentum"), (float) fx.num("epsilon"),
                    fx.root().get("centered").asBoolean(), weightDecay);
        };
    }

    private static List<String> slotKeys(Fixture fx) {
        List<String> keys = new ArrayList<>();
        fx.root().get("slots").forEach(n -> keys.add(n.asText()));
        return keys;
    }

    /** Runs the fixture's steps, one eager graph each, checking after each step what {@code expected} names. */
    private static void run(Kernels k, Fixture fx, Optimizer opt, DoubleFunction<Tensor> expectedParam,
                            boolean checkSlots) {
        Variable p = new Variable("p", fx.t("param0"), true);
        int steps = fx.root().get("steps").asInt();
        List<String> keys = slotKeys(fx);
        for (int step = 1; step <= steps; step++) {
            Graph g = Graph.eager(k);
            Node grad = g.input("grad", fx.t("grad" + step));
            float[] hyper = opt.hyperParameters();
            assertEquals(opt.hyperParameterCount(), hyper.length);
            opt.apply(g, List.of(p), List.of(grad), g.input("hyper", Tensor.of(hyper, hyper.length)));
            opt.finishStep();
            String what = fx.name() + " step " + step;
            TorchFixturesTest.assertClose(expectedParam.apply(step), p.value(), what + " param");
            if (!checkSlots) {
                continue;
            }
            List<Variable> state = opt.stateVariables(List.of(p));
            assertEquals(keys.size(), state.size(), what + ": state variables " + state);
            for (int s = 0; s < keys.size(); s++) {
                String name = state.get(s).name();
                assertEquals(keys.get(s), name.substring(name.indexOf('/') + 1), what + ": state variable " + s);
                TorchFixturesTest.assertClose(fx.t(keys.get(s) + step), state.get(s).value(), what + " " + name);
            }
        }
        assertEquals(steps, opt.iterations());
    }

    @ParameterizedTest
    @CsvSource({"opt_adagrad,default", "opt_adagrad,scalar", "opt_adadelta,default", "opt_adadelta,scalar",
        "opt_adamax,default", "opt_adamax,scalar", "opt_nadam,default", "opt_nadam,scalar", "opt_lion,default",
        "opt_lion,scalar", "opt_amsgrad,default", "opt_amsgrad,scalar", "opt_rmsprop_momentum,default",
        "opt_rmsprop_momentum,scalar", "opt_rmsprop_centered,default", "opt_rmsprop_centered,scalar",
        "opt_rmsprop_centered_momentum,default", "opt_rmsprop_centered_momentum,scalar",
        "opt_sgd_weight_decay,default", "opt_sgd_weight_decay,scalar", "opt_ftrl,default", "opt_ftrl,scalar",
        "opt_ftrl_power,default", "opt_ftrl_power,scalar"})
    void followsKerasAndTorch(String name, String backend) {
        Kernels k = GradCheck.kernels(backend);
        Fixture fx = Fixture.load(name);
        run(k, fx, make(fx, 0f), step -> fx.t("param" + (int) step), true);
        if (fx.root().get("tensors").has("torch_param1")) {
            run(k, fx, make(fx, 0f), step -> fx.t("torch_param" + (int) step), false);
        }
    }

    /**
     * Keras applies the decoupled decay {@code p -= p * weight_decay * lr} before each update, and none of these
     * updates reads {@code p}; so with decay, step t moves {@code p_{t-1} (1 - lr wd)} by the same amount as the
     * fixture's step t moves its {@code param_{t-1}}.
     */
    @ParameterizedTest
    @CsvSource({"opt_adagrad", "opt_adadelta", "opt_adamax", "opt_nadam", "opt_lion", "opt_amsgrad",
        "opt_rmsprop_centered_momentum"})
    void decoupledWeightDecayComesBeforeTheUpdate(String name) {
        Fixture fx = Fixture.load(name);
        float wd = 0.05f;
        double keep = 1 - fx.num("learning_rate") * wd;
        int steps = fx.root().get("steps").asInt();
        Tensor[] expected = new Tensor[steps + 1];
        expected[0] = fx.t("param0");
        for (int t = 1; t <= steps; t++) {
            Tensor before = fx.t("param" + (t - 1));
            Tensor after = fx.t("param" + t);
            float[] e = new float[after.size()];
            for (int i = 0; i < e.length; i++) {
                e[i] = (float) (expected[t - 1].get(i) * keep - ((double) before.get(i) - after.get(i)));
            }
            expected[t] = Tensor.of(e, after.shape().dims());
        }
        run(GradCheck.kernels("default"), fx, make(fx, wd), step -> expected[(int) step], false);
    }
}

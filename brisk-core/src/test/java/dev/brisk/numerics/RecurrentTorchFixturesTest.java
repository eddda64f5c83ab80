package dev.brisk.numerics;

import static dev.brisk.numerics.TorchFixturesTest.assertClose;
import static dev.brisk.numerics.TorchFixturesTest.build;
import static dev.brisk.numerics.TorchFixturesTest.layerPass;

import dev.brisk.backend.Kernels;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.layers.GRU;
import dev.brisk.nn.layers.LSTM;
import dev.brisk.nn.layers.Recurrent;
import dev.brisk.nn.layers.SimpleRNN;
import dev.brisk.numerics.TorchFixturesTest.Fixture;
import dev.brisk.numerics.TorchFixturesTest.Pass;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The recurrent layers against PyTorch's {@code nn.RNN}, {@code nn.LSTM} and {@code nn.GRU} on the same weights
 * ({@code tools/fixtures/make_rnn_fixtures.py}, which states the layout conversions): output and the gradients of
 * {@code sum(dy * y)} with respect to the input and each weight, relative error at most 1e-4, on the default and
 * the scalar kernels.
 */
class RecurrentTorchFixturesTest {
    @BeforeEach
    void seed() {
        RandomSeed.set(7);
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void recurrentLayers(String backend) {
        Kernels k = GradCheck.kernels(backend);
        for (String name : List.of("rnn_simple", "rnn_simple_seq_back", "rnn_lstm", "rnn_lstm_seq", "rnn_lstm_back",
                "rnn_gru", "rnn_gru_seq_back")) {
            Fixture fx = Fixture.load(name);
            int units = (int) fx.num("units");
            boolean sequences = fx.root().get("return_sequences").asBoolean();
            boolean backwards = fx.root().get("go_backwards").asBoolean();
            Recurrent layer = switch (fx.str("cell")) {
                case "simple_rnn" -> new SimpleRNN(units, sequences, backwards, null);
                case "lstm" -> new LSTM(units, sequences, backwards, null);
                case "gru" -> new GRU(units, sequences, backwards, null);
                default -> throw new IllegalArgumentException(fx.str("cell"));
            };
            build(k, layer, fx.t("x"));
            layer.kernel().assign(fx.t("kernel"));
            layer.recurrentKernel().assign(fx.t("recurrent_kernel"));
            layer.bias().assign(fx.t("bias"));
            Pass p = layerPass(k, layer, true, fx.t("x"), fx.t("dy"),
                    List.of(layer.kernel(), layer.recurrentKernel(), layer.bias()));
            assertClose(fx.t("y"), p.y(), name + " y");
            assertClose(fx.t("dx"), p.grads().get(0), name + " dx");
            assertClose(fx.t("dkernel"), p.grads().get(1), name + " dkernel");
            assertClose(fx.t("drecurrent_kernel"), p.grads().get(2), name + " drecurrent_kernel");
            assertClose(fx.t("dbias"), p.grads().get(3), name + " dbias");
        }
    }
}

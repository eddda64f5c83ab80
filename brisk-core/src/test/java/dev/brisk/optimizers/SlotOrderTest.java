package dev.brisk.optimizers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brisk.losses.Losses;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Model;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.ops.Variable;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An optimizer lists its state in the model's order of trainable weights, whatever the identity hash codes, so that
 * saved optimizer state lines up with the weights it belongs to.
 */
class SlotOrderTest {
    @Test
    void adamSlotsFollowTheTrainableWeights() {
        Model model = Sequential.of(Layers.input(4), Layers.dense(8, Activation.RELU), Layers.dense(6),
                Layers.dense(2));
        Optimizer adam = Optimizers.adam(1e-3f);
        model.compile(adam, Losses.meanSquaredError());
        model.fit(Tensor.zeros(8, 4), Tensor.zeros(8, 2), Fit.epochs(1).batchSize(4).verbose(0));
        List<String> expected = new ArrayList<>();
        for (Variable v : model.trainableVariables()) {
            expected.add(v.name() + "/m");
            expected.add(v.name() + "/v");
        }
        assertEquals(expected, adam.slotVariables().stream().map(Variable::name).toList());
    }
}

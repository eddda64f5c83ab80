package dev.brisk.nn;

import dev.brisk.nn.layers.Layers;
import dev.brisk.nn.layers.Padding;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Tensor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A compiled train step of a model over INT32 token ids (embedding lookup and its gradient, the mask, Conv1D,
 * Dense over rank 3, the 1-D poolings) allocates nothing once the JIT has compiled it. (Runs in a JVM of its own.)
 */
class SequenceStepAllocationTest {
    @AfterEach
    void resetBudget() {
        ThreadBudget.reset();
    }

    @Test
    void compiledSequenceStepsAllocateNothing() {
        ThreadBudget.set(1);
        Model masked = Sequential.of(
                Layers.input(DType.INT32, 12),
                Layers.embedding(20, 16, true),
                Layers.globalAveragePooling1d(),
                Layers.dense(2));
        Model convolutional = Sequential.of(
                Layers.input(DType.INT32, 12),
                Layers.embedding(20, 16),
                Layers.conv1d(8, 3, 1, Padding.CAUSAL, Activation.RELU),
                Layers.dense(8, Activation.TANH),
                Layers.maxPooling1d(2),
                Layers.globalMaxPooling1d(),
                Layers.dense(2));
        Tensor[] xy = SequenceModelTest.sequences(64, 1);
        for (Model model : new Model[] {masked, convolutional}) {
            RandomSeed.set(1);
            PlanAllocation.assertStepAllocatesNothing(PlanAllocation.compiled(model), xy, 32,
                    "sequence step (" + (model == masked ? "masked" : "convolutional") + ")");
        }
    }
}

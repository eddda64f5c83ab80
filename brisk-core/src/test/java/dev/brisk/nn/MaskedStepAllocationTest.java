package dev.brisk.nn;

import dev.brisk.nn.layers.Layers;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Tensor;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A compiled train step whose loss reads the output's padding mask ({@code Embedding(maskZero)} through
 * {@code LSTM(returnSequences)} and {@code Dense}, per-step sparse cross-entropy) allocates nothing. (Runs in a JVM
 * of its own with the other allocation tests: see the POM.)
 */
class MaskedStepAllocationTest {
    @AfterEach
    void resetBudget() {
        ThreadBudget.reset();
    }

    @Test
    void maskedSequenceLossStepAllocatesNothing() {
        RandomSeed.set(5);
        int steps = 12;
        int vocab = 20;
        Model model = PlanAllocation.compiled(Sequential.of(
                Layers.input(DType.INT32, steps),
                Layers.embedding(vocab, 16, true),
                Layers.lstm(16, true, false),
                Layers.dense(vocab)));
        int rows = 32;
        SplittableRandom r = new SplittableRandom(6);
        int[] ids = new int[rows * steps];
        float[] targets = new float[rows * steps];
        for (int i = 0; i < rows; i++) {
            int length = 1 + r.nextInt(steps);
            for (int t = 0; t < length; t++) {
                ids[i * steps + t] = 1 + r.nextInt(vocab - 1);
                targets[i * steps + t] = r.nextInt(vocab);
            }
        }
        Tensor[] xy = {Tensor.ofInts(ids, rows, steps), Tensor.of(targets, rows, steps)};
        PlanAllocation.assertStepAllocatesNothing(model, xy, rows, "masked sequence-loss step");
    }
}

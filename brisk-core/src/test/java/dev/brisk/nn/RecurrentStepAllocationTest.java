package dev.brisk.nn;

import dev.brisk.nn.layers.Layers;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A compiled train step of a model of the three recurrent layers allocates nothing once the JIT has compiled its
 * kernels, on the calling thread or the pool's workers: their state, scratch and per-step products all lie in
 * planned buffers. The units are whole vectors, as in the reference workload; a SimpleRNN of 8 units (half a
 * 512-bit vector) was seen to box vectors in its tanh pass, which is left open. (Runs in a JVM of its own, as
 * every {@code *AllocationTest}: see the POM.)
 */
class RecurrentStepAllocationTest {
    @AfterEach
    void resetBudget() {
        ThreadBudget.reset();
    }

    @Test
    void recurrentTrainStepAllocatesNothingOnTwoThreads() {
        ThreadBudget.set(2);
        RandomSeed.set(1);
        Model model = PlanAllocation.compiled(Sequential.of(
                Layers.input(6, 5),
                Layers.simpleRnn(16, true, true),
                Layers.lstm(32, true, false),
                Layers.gru(16),
                Layers.dense(3)));
        PlanAllocation.assertStepAllocatesNothing(model, EagerVsCompiledTest.data(64, 6, 5), 32, "recurrent step");
    }

    /**
     * The same with the kernels' masking, initial states and returned states: an encoder LSTM over masked
     * embeddings returns its sequence (the mask travels with it) and its states, which start a decoder LSTM over a
     * TimeDistributed Dense of the sequence; a masked Bidirectional GRU reads the sequence too.
     */
    @Test
    void maskedStatefulTrainStepAllocatesNothingOnTwoThreads() {
        ThreadBudget.set(2);
        RandomSeed.set(2);
        SymbolicTensor in = Input.of(DType.INT32, 12);
        SymbolicTensor e = Layers.embedding(20, 16, true).apply(in);
        List<SymbolicTensor> enc = Layers.lstm(32, true, false, true).applyAll(e);
        SymbolicTensor dec = Layers.bidirectional(Layers.gru(16, false, true)).apply(enc.get(0));
        SymbolicTensor steps = Layers.timeDistributed(Layers.dense(32)).apply(enc.get(0));
        SymbolicTensor last = Layers.lstm(32, false, false).apply(steps, enc.get(1), enc.get(2));
        Model model = PlanAllocation.compiled(
                Model.of(in, Layers.dense(3).apply(Layers.add().apply(last, Layers.dense(32).apply(dec)))));
        PlanAllocation.assertStepAllocatesNothing(model, SequenceModelTest.sequences(64, 3), 32,
                "masked, stateful recurrent step");
    }
}

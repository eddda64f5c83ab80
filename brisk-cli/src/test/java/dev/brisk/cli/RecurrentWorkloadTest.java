package dev.brisk.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brisk.cli.Workloads.Workload;
import dev.brisk.nn.RandomSeed;
import dev.brisk.tensor.Shape;
import org.junit.jupiter.api.Test;

/** W3 of docs/workloads.md: its model has the size counted there and reads each image as 28 rows of 28 pixels. */
class RecurrentWorkloadTest {
    @Test
    void w3HasTheParametersAndMultiplyAddsCountedByHand() {
        RandomSeed.set(1);
        // LSTM: kernel 28 x 512 + recurrent kernel 128 x 512 + bias 512; Dense: 128 x 10 + 10
        assertEquals(14_336 + 65_536 + 512 + 1_290, Workload.W3.model().parameterCount());
        // 28 steps x (28 + 128) x 512 gate columns, plus 128 x 10
        assertEquals(2_236_416 + 1_280, Workload.W3.forwardMacsPerSample());
        assertEquals(3, Workload.W3.defaultEpochs());
        assertEquals(Workload.W3, Workload.parse("W3"));
    }

    @Test
    void w3ReadsImagesAsSequencesOfRows() {
        RandomSeed.set(1);
        assertEquals(Shape.of(28, 28), Workload.W3.model().inputs().get(0).shape());
    }
}

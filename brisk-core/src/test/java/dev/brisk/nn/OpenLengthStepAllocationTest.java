package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brisk.data.Batch;
import dev.brisk.data.Pipeline;
import dev.brisk.nn.layers.Layers;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A model with an open sequence length keeps one planned step per length, and each of them, once made, allocates
 * nothing per step, as a fixed-length model's plan does. (Runs in a JVM of its own.)
 */
class OpenLengthStepAllocationTest {
    @AfterEach
    void resetBudget() {
        ThreadBudget.reset();
    }

    @Test
    void eachLengthsPlanAllocatesNothing() {
        ThreadBudget.set(1);
        RandomSeed.set(1);
        Model model = PlanAllocation.compiled(Sequential.of(
                Layers.input(DType.INT32, Shape.OPEN),
                Layers.embedding(20, 16, true),
                Layers.lstm(8),
                Layers.dense(2)));
        // Length 7 in batches of 32, length 12 in batches of 16: trainPlan(rows) then names each length's plan.
        List<Batch> batches = new ArrayList<>();
        int[][] shapes = {{32, 7}, {16, 12}, {32, 7}, {16, 12}};
        for (int[] s : shapes) {
            int[] ids = new int[s[0] * s[1]];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = 1 + i % 19;
            }
            batches.add(new Batch(Tensor.ofInts(ids, s[0], s[1]), Tensor.zeros(s[0]), s[0]));
        }
        model.fit(Pipeline.fromList(batches), Fit.epochs(1).verbose(0));
        assertEquals(2, model.planTraces(), "one plan per length");
        for (int rows : new int[] {32, 16}) {
            PlanAllocation.assertAllocatesNothing(model.trainPlan(rows), "open-length step of batch " + rows);
        }
    }
}

package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import dev.brisk.exec.Plan;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.tensor.Tensor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A compiled train step through the convolution variants and image layers of issue 28 (the model of
 * {@code ConvolutionVariantsFitTest}: dilated Conv2D, DepthwiseConv2D, SeparableConv2D, SpatialDropout2D,
 * Conv2DTranspose, Cropping2D, BatchNormalization on axis 1 without offset, GlobalMaxPooling2D, Dot, Lambda)
 * allocates nothing. (Runs in a JVM of its own with the other allocation tests: see the POM.)
 */
class ConvolutionVariantsStepAllocationTest {
    @AfterEach
    void resetBudget() {
        ThreadBudget.reset();
    }

    @Test
    void convolutionVariantsStepAllocatesNothing() {
        Model model = dev.brisk.api.ConvolutionVariantsFitTest.build();
        Tensor[] d = dev.brisk.api.ConvolutionVariantsFitTest.data();
        int rows = 32;
        model.fit(d[0], d[1], Fit.epochs(1).batchSize(rows).verbose(0));
        Plan plan = model.trainPlan(rows);
        assertNotNull(plan);
        long perStep = PlanAllocation.bytesPerStep(plan);
        System.out.printf("convolution variants step: %d bytes allocated per step%n", perStep);
        if (perStep != 0) {
            fail("a compiled convolution-variants step allocated " + perStep + " bytes"
                    + PlanAllocation.allocatingInstructions(plan));
        }
    }
}

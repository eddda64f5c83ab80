package dev.brisk.nn;

import dev.brisk.api.ConvolutionVariantsFitTest;
import dev.brisk.parallel.ThreadBudget;
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
        PlanAllocation.assertStepAllocatesNothing(ConvolutionVariantsFitTest.build(),
                ConvolutionVariantsFitTest.data(), 32, "convolution-variants step");
    }
}

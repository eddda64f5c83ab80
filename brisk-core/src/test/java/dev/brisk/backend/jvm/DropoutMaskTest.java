package dev.brisk.backend.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The integer keep test of {@link DropoutMask#threshold} against the float one of {@link DropoutMask#kept}, at the
 * draws where they could disagree: rates on, just below and just above {@code d * 2^-24}, and draws beside them.
 */
class DropoutMaskTest {
    @Test
    void integerThresholdKeepsExactlyTheDrawsTheFloatTestKeeps() {
        int[] draws = {0, 1, 2, 3, 1000, 1 << 23, (1 << 23) + 1, 12_582_912, (1 << 24) - 2, (1 << 24) - 1};
        for (int d0 : draws) {
            float onGrid = d0 * 0x1.0p-24f;
            for (float rate : new float[] {onGrid, Math.nextDown(onGrid), Math.nextUp(onGrid), 0x1.0p-149f}) {
                if (!(rate >= 0 && rate < 1)) {
                    continue;
                }
                long threshold = DropoutMask.threshold(rate);
                for (long d = Math.max(0, d0 - 2); d <= Math.min((1 << 24) - 1, d0 + 2L); d++) {
                    boolean byFloat = d * 0x1.0p-24f >= rate;
                    assertEquals(byFloat, d >= threshold, "draw " + d + " at rate " + rate);
                }
            }
        }
        assertEquals(0, DropoutMask.threshold(0f));
        assertEquals(1, DropoutMask.threshold(0x1.0p-149f));
        assertEquals((1 << 24) - 1, DropoutMask.threshold(Math.nextDown(1f)));
    }
}

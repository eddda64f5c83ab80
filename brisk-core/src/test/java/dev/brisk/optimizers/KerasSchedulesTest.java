package dev.brisk.optimizers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * Keras 3's learning-rate schedules, each against values worked out by hand from Keras' formulas
 * ({@code keras/src/optimizers/schedules/learning_rate_schedule.py}).
 */
class KerasSchedulesTest {
    @Test
    void piecewiseConstantDecayIncludesEachBoundaryInTheEarlierPiece() {
        LearningRateSchedule s = LearningRateSchedule.piecewiseConstantDecay(new long[] {100, 110},
                new float[] {1f, 0.5f, 0.1f});
        assertEquals(1f, s.at(0));
        assertEquals(1f, s.at(100));
        assertEquals(0.5f, s.at(101));
        assertEquals(0.5f, s.at(110));
        assertEquals(0.1f, s.at(111));
        assertThrows(IllegalArgumentException.class,
                () -> LearningRateSchedule.piecewiseConstantDecay(new long[] {5}, new float[] {1f}));
        assertThrows(IllegalArgumentException.class,
                () -> LearningRateSchedule.piecewiseConstantDecay(new long[] {5, 5}, new float[] {1f, 2f, 3f}));
    }

    @Test
    void polynomialDecayHoldsOrCycles() {
        LearningRateSchedule linear = LearningRateSchedule.polynomialDecay(0.1f, 10, 0.01f, 1f, false);
        assertEquals(0.1f, linear.at(0), 1e-7);
        assertEquals(0.055f, linear.at(5), 1e-7);
        assertEquals(0.01f, linear.at(10), 1e-7);
        assertEquals(0.01f, linear.at(25), 1e-7);
        LearningRateSchedule squared = LearningRateSchedule.polynomialDecay(1f, 10, 0f, 2f, false);
        assertEquals(0.25f, squared.at(5), 1e-7);
        // cycle: step 15 decays over 20 steps: (1 - 15/20)^1 * 0.09 + 0.01
        LearningRateSchedule cycling = LearningRateSchedule.polynomialDecay(0.1f, 10, 0.01f, 1f, true);
        assertEquals(0.09f * 0.25f + 0.01f, cycling.at(15), 1e-7);
        assertEquals(0.1f, cycling.at(0), 1e-7);
    }

    @Test
    void inverseTimeDecaySmoothAndStaircase() {
        LearningRateSchedule smooth = LearningRateSchedule.inverseTimeDecay(0.1f, 10, 0.5f, false);
        assertEquals(0.1f / 1.75f, smooth.at(15), 1e-7);
        LearningRateSchedule stairs = LearningRateSchedule.inverseTimeDecay(0.1f, 10, 0.5f, true);
        assertEquals(0.1f / 1.5f, stairs.at(15), 1e-7);
    }

    @Test
    void cosineDecayRestartsStretchesAndLowersEachPeriod() {
        LearningRateSchedule s = LearningRateSchedule.cosineDecayRestarts(1f, 10, 2f, 0.5f, 0f);
        assertEquals(1f, s.at(0), 1e-6);
        assertEquals(0.5f, s.at(5), 1e-6); // half way down the first period (10 steps)
        assertEquals(0.5f, s.at(10), 1e-6); // the second period starts at m_mul = 0.5
        assertEquals(0.25f, s.at(20), 1e-6); // half way through the second period (20 steps)
        assertEquals(0.25f, s.at(30), 1e-6); // the third period starts at 0.25
        LearningRateSchedule even = LearningRateSchedule.cosineDecayRestarts(1f, 10, 1f, 1f, 0.1f);
        assertEquals(1f, even.at(10), 1e-6);
        assertEquals(0.1f + 0.9f * 0.5f, even.at(15), 1e-6);
    }

    @Test
    void cosineDecayWarmsUpLinearlyThenDecaysFromTheTarget() {
        LearningRateSchedule s = LearningRateSchedule.cosineDecay(0f, 100, 0.1f, 1e-2f, 10);
        assertEquals(0f, s.at(0), 1e-9);
        assertEquals(5e-3f, s.at(5), 1e-9);
        assertEquals(1e-2f, s.at(10), 1e-9);
        assertEquals(1e-2f * (0.9f * 0.5f + 0.1f), s.at(60), 1e-8);
        assertEquals(1e-3f, s.at(500), 1e-9);
        LearningRateSchedule plain = LearningRateSchedule.cosineDecay(1f, 10, 0f);
        assertEquals(0.5f, plain.at(5), 1e-6);
        assertThrows(IllegalArgumentException.class, () -> LearningRateSchedule.cosineDecay(1f, 10, 0f, null, 5));
    }
}

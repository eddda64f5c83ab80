package dev.brisk.optimizers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brisk.ops.AdamUpdate;
import dev.brisk.ops.RmspropUpdate;
import dev.brisk.ops.SgdUpdate;
import org.junit.jupiter.api.Test;

/** Each optimiser fills its per-step vector at the indexes its update record names, which the kernel binder reads. */
class HyperParameterLayoutTest {
    @Test
    void adamPlacesBiasCorrectedRateEpsilonAndDecayByName() {
        Adam adam = new Adam(0.5f, 0.9f, 0.999f, 1e-7f, 0.01f);
        float[] hyper = adam.hyperParameters();
        assertEquals(AdamUpdate.HYPER_LENGTH, hyper.length);
        assertEquals(adam.hyperParameterCount(), hyper.length);
        double lrT = 0.5 * Math.sqrt(1 - (double) 0.999f) / (1 - (double) 0.9f);
        assertEquals((float) lrT, hyper[AdamUpdate.LR_T]);
        assertEquals(1e-7f, hyper[AdamUpdate.EPS_HAT]);
        assertEquals((float) (0.5 * 0.01f), hyper[AdamUpdate.DECOUPLED_DECAY]);
    }

    @Test
    void sgdPlacesTheLearningRateByName() {
        Sgd sgd = new Sgd(0.25f, 0.9f, true);
        float[] hyper = sgd.hyperParameters();
        assertEquals(SgdUpdate.HYPER_LENGTH, hyper.length);
        assertEquals(sgd.hyperParameterCount(), hyper.length);
        assertEquals(0.25f, hyper[SgdUpdate.LR]);
    }

    @Test
    void rmspropPlacesRateAndEpsilonByName() {
        RmsProp rms = new RmsProp(0.125f, 0.9f, 1e-6f);
        float[] hyper = rms.hyperParameters();
        assertEquals(RmspropUpdate.HYPER_LENGTH, hyper.length);
        assertEquals(rms.hyperParameterCount(), hyper.length);
        assertEquals(0.125f, hyper[RmspropUpdate.LR]);
        assertEquals(1e-6f, hyper[RmspropUpdate.EPS]);
    }
}

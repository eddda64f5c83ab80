package dev.brisk.optimizers;

import java.util.ArrayList;
import java.util.List;

/** The arithmetic the learning-rate schedules share, kept out of the public interface. */
final class Schedules {
    private Schedules() {
    }

    /** Keras' cosine decay from {@code from}: {@code from * ((1 - alpha) * 0.5 (1 + cos(pi step / steps)) + alpha)}. */
    static double cosine(double from, long step, long steps, float alpha) {
        double cosine = 0.5 * (1 + Math.cos(Math.PI * step / steps));
        return from * ((1 - alpha) * cosine + alpha);
    }

    /** Refuses a step count below 1, naming it. */
    static void positive(String what, long steps) {
        if (steps <= 0) {
            throw new IllegalArgumentException(what + " must be positive, got " + steps);
        }
    }

    /** The values as a list, for a schedule's recorded configuration. */
    static List<Float> boxed(float[] values) {
        List<Float> out = new ArrayList<>();
        for (float v : values) {
            out.add(v);
        }
        return out;
    }
}

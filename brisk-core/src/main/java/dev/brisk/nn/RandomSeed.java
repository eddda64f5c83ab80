package dev.brisk.nn;

import java.util.SplittableRandom;

/**
 * The source of randomness for weight initialisation, shuffling and dropout. {@link #set(long)} makes a run
 * reproducible (Keras' {@code set_random_seed}); otherwise seeds come from the clock.
 */
public final class RandomSeed {
    private static SplittableRandom rng = new SplittableRandom();

    private RandomSeed() {
    }

    /**
     * Restarts the seed sequence: the same seed gives the same initial weights and shuffles.
     *
     * @param seed the seed
     */
    public static synchronized void set(long seed) {
        rng = new SplittableRandom(seed);
    }

    /**
     * The next seed of the sequence.
     *
     * @return the next seed
     */
    public static synchronized long next() {
        return rng.nextLong();
    }
}

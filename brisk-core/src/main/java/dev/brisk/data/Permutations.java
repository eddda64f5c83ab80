package dev.brisk.data;

import java.util.SplittableRandom;

/** Seeded random permutations for shuffling datasets reproducibly. */
public final class Permutations {
    private Permutations() {
    }

    /**
     * The indexes {@code 0..n-1} in a Fisher-Yates order determined only by {@code seed}.
     *
     * @param n the number of indexes
     * @param seed the seed
     * @return a new array
     */
    public static int[] shuffled(int n, long seed) {
        int[] order = identity(n);
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        return order;
    }

    /**
     * The indexes {@code 0..n-1} in ascending order.
     *
     * @param n the number of indexes
     * @return a new array
     */
    public static int[] identity(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("permutation length must be non-negative, got " + n);
        }
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        return order;
    }
}

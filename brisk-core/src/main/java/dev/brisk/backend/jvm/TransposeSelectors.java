package dev.brisk.backend.jvm;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The lane selectors of {@link Transpose8}'s and {@link Transpose16}'s rounds, in a class of its own so that using
 * one transpose never initialises the other's vectors (a second vector size in the JVM is what these classes avoid).
 */
final class TransposeSelectors {
    private TransposeSelectors() {
    }

    /**
     * Lane selectors for the round that swaps the {@code d x d} off-diagonal sub-blocks of rows {@code r} and
     * {@code r + d} of a block as wide as {@code species}' vectors (n lanes): lanes 0 to n-1 name the first row's
     * lanes, n to 2n-1 the second's. The low row keeps its lanes without bit {@code d} and takes the high row's lanes
     * shifted down by {@code d}; the high row the other way round.
     */
    static FloatVector of(VectorSpecies<Float> species, int d, boolean high) {
        int n = species.length();
        float[] lanes = new float[n];
        for (int l = 0; l < n; l++) {
            boolean own = (l & d) == 0;
            lanes[l] = high ? (own ? l + d : n + l) : (own ? l : n + l - d);
        }
        return FloatVector.fromArray(species, lanes, 0);
    }
}

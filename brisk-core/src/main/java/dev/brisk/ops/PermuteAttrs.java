package dev.brisk.ops;

/**
 * The axis order of a PERMUTE node: output axis {@code i} is input axis {@code perm[i]}.
 *
 * @param perm a permutation of {@code 0 .. rank-1}
 */
public record PermuteAttrs(int[] perm) implements Attrs {
    /**
     * The permutation that undoes this one (the gradient's).
     *
     * @return the inverse permutation
     */
    public int[] inverse() {
        int[] inv = new int[perm.length];
        for (int i = 0; i < perm.length; i++) {
            inv[perm[i]] = i;
        }
        return inv;
    }
}

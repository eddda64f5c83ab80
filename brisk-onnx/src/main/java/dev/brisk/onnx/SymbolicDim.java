package dev.brisk.onnx;

/**
 * One dimension of a traced shape as the exported model sees it: a fixed size, or a product of the model's dynamic
 * sizes (the batch size and each open sequence length, see {@link InferenceTrace}) times a factor, such as
 * {@code batch * length} for a Dense layer's rows over a sequence; or irregular, a size that changes with a dynamic
 * size but is not such a product (a pooled length, {@code floor(length / 2)}), which the exporter can carry through
 * operators that compute it themselves but cannot write out.
 *
 * @param value the size in the first trace
 * @param factor the factor of the product (the size itself when fixed); 0 when irregular
 * @param symbols a bit per dynamic size in the product: bit 0 the batch, bit {@code j} the open axis {@code j}; 0 when
 *                fixed or irregular
 */
record SymbolicDim(int value, int factor, int symbols) {
    /** Whether the size is the same at every batch size and length. */
    boolean isFixed() {
        return symbols == 0 && factor != 0;
    }

    /** Whether the size changes with a dynamic size but is no product of them. */
    boolean isIrregular() {
        return symbols == 0 && factor == 0;
    }

    /** Whether the size is the product of dynamic sizes named by {@code symbols}, times {@code factor}. */
    boolean isProduct() {
        return symbols != 0;
    }

    /**
     * The dimension's size in every trace: fixed, a product, or irregular.
     *
     * @param sizes the size of this dimension in each trace (the first, then one per dynamic size varied)
     * @param base each dynamic size's value in the first trace
     * @param varied each dynamic size's value in its own trace
     * @return the dimension
     */
    static SymbolicDim of(int[] sizes, int[] base, int[] varied) {
        int v0 = sizes[0];
        int symbols = 0;
        int factor = v0;
        for (int j = 0; j < base.length; j++) {
            int vj = sizes[j + 1];
            if (vj == v0) {
                continue;
            }
            if ((long) vj * base[j] != (long) v0 * varied[j] || factor % base[j] != 0) {
                return new SymbolicDim(v0, 0, 0);
            }
            factor /= base[j];
            symbols |= 1 << j;
        }
        return new SymbolicDim(v0, factor, symbols);
    }
}

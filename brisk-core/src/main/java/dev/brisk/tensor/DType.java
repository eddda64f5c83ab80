package dev.brisk.tensor;

/** Element type of a tensor. Only FLOAT32 has kernels today; the field exists so bf16/f16 can follow. */
public enum DType {
    FLOAT32(4);

    private final int byteSize;

    DType(int byteSize) {
        this.byteSize = byteSize;
    }

    /** Bytes per element. */
    public int byteSize() {
        return byteSize;
    }
}

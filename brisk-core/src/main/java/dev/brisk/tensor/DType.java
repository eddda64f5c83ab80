package dev.brisk.tensor;

/** Element type of a tensor. Only FLOAT32 has kernels today; the field exists so bf16/f16 can follow. */
public enum DType {
    /** 32-bit IEEE 754 float, 4 bytes; the type of every tensor today. */
    FLOAT32(4);

    private final int byteSize;

    DType(int byteSize) {
        this.byteSize = byteSize;
    }

    /**
     * Bytes per element.
     *
     * @return the size of one element in bytes (4 for {@link #FLOAT32})
     */
    public int byteSize() {
        return byteSize;
    }
}

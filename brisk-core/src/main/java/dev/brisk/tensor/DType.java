package dev.brisk.tensor;

/**
 * Element type of a tensor. Every tensor is stored in a {@code float[]}; an {@link #INT32} tensor keeps each value's
 * raw int bits there ({@link Float#intBitsToFloat}), so buffers, the memory planner and batch copies (which move bits
 * and never convert) serve both types. Only ops that read int bits (an embedding's token ids) accept INT32 values.
 */
public enum DType {
    /** 32-bit IEEE 754 float, 4 bytes; the type of every tensor today. */
    FLOAT32(4),
    /**
     * 32-bit signed integer, 4 bytes, stored as raw bits in a float array: token ids and other indexes, exact over
     * the whole int range (floats are exact only up to 2^24).
     */
    INT32(4);

    private final int byteSize;

    DType(int byteSize) {
        this.byteSize = byteSize;
    }

    /**
     * Bytes per element.
     *
     * @return the size of one element in bytes (4 for {@link #FLOAT32} and {@link #INT32})
     */
    public int byteSize() {
        return byteSize;
    }
}

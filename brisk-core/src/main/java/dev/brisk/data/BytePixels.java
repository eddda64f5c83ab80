package dev.brisk.data;

import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;

/**
 * Feature rows kept as the unsigned bytes an image file stores, divided into floats only as rows are copied into a
 * batch: a quarter of the memory of floats, and no large float array to allocate and zero before the first training
 * step can start.
 *
 * <p>A value is {@code (b & 0xFF) / divisor}, through a table of the 256 quotients, so each float has the bits an
 * up-front decode ({@link IdxType}) gives. Views made by {@link #slice} and {@link #reshape} share the bytes; each
 * view makes its own float copy if {@link #toTensor()} is called on it.
 */
final class BytePixels {
    private static final int CACHE_LINE_BYTES = 64;
    private final byte[] data;
    private final int offset;
    private final Shape shape;
    private final float divisor;
    private final float[] table;
    /** Values per row (computed once: {@link Shape#dropFirst()} allocates, and rows are copied per batch). */
    private final int rowSize;
    private final Shape rowShape;
    /** The whole view as floats, made by the first {@link #toTensor()} call. */
    private volatile Tensor floats;

    /** The bytes {@code data[offset ..]} as a {@code shape} array ({@code [N, ...]}), each divided by {@code divisor}. */
    BytePixels(byte[] data, int offset, Shape shape, float divisor) {
        this(data, offset, shape, divisor, table(divisor));
    }

    private BytePixels(byte[] data, int offset, Shape shape, float divisor, float[] table) {
        if (shape.rank() == 0 || offset < 0 || (long) offset + shape.size() > data.length) {
            throw new IllegalArgumentException("shape " + shape + " at offset " + offset + " does not fit "
                    + data.length + " bytes");
        }
        this.data = data;
        this.offset = offset;
        this.shape = shape;
        this.divisor = divisor;
        this.table = table;
        this.rowShape = shape.dropFirst();
        this.rowSize = rowShape.size();
    }

    private static float[] table(float divisor) {
        float[] t = new float[256];
        for (int b = 0; b < 256; b++) {
            t[b] = b / divisor;
        }
        return t;
    }

    /** {@code [N, ...]}. */
    Shape shape() {
        return shape;
    }

    /** Floats per row. */
    int rowSize() {
        return rowSize;
    }

    /** Copies row {@code row} as floats to {@code dst[dstOff ..]}. */
    void copyRow(int row, float[] dst, int dstOff) {
        int src = offset + row * rowSize;
        for (int i = 0; i < rowSize; i++) {
            dst[dstOff + i] = table[data[src + i] & 0xFF];
        }
    }

    /**
     * Reads one byte of each cache line of row {@code row} and returns their sum: see
     * {@link GatheringBatchIterator}, which touches a chunk's rows before it copies them.
     */
    int touchRow(int row) {
        int src = offset + row * rowSize;
        int sum = data[src + rowSize - 1];
        for (int i = 0; i < rowSize; i += CACHE_LINE_BYTES) {
            sum += data[src + i];
        }
        return sum;
    }

    /** Row {@code row} as a new float tensor of the row's shape: a pipeline's sample, decoded as it is made. */
    Tensor row(int row) {
        float[] values = Tensor.storage(rowSize);
        copyRow(row, values, 0);
        return Tensor.wrap(values, 0, rowShape);
    }

    /**
     * The same bytes divided by {@code newDivisor} instead, or null unless this view divides by 1 (only then is
     * {@code (b / 1) / d} the same float as {@code b / d}).
     */
    BytePixels dividedBy(float newDivisor) {
        return divisor == 1f ? new BytePixels(data, offset, shape, newDivisor) : null;
    }

    /** Rows {@code [from, to)}, sharing the bytes. */
    BytePixels slice(int from, int to) {
        Shape sliced = shape.withDim(0, to - from);
        return new BytePixels(data, offset + from * rowSize, sliced, divisor, table);
    }

    /** The same bytes seen as {@code newShape} (same element count). */
    BytePixels reshape(Shape newShape) {
        if (newShape.size() != shape.size()) {
            throw new IllegalArgumentException("cannot view " + shape + " as " + newShape);
        }
        return new BytePixels(data, offset, newShape, divisor, table);
    }

    /** Whether {@link #toTensor()} has made the float copy (tests check that the pipeline never asks for it). */
    boolean hasFloatCopy() {
        return floats != null;
    }

    /** All rows as a float tensor, made once on the first call (for callers that need the whole array). */
    Tensor toTensor() {
        Tensor t = floats;
        if (t == null) {
            synchronized (this) {
                t = floats;
                if (t == null) {
                    float[] values = new float[shape.size()];
                    for (int i = 0; i < values.length; i++) {
                        values[i] = table[data[offset + i] & 0xFF];
                    }
                    t = Tensor.wrap(values, 0, shape);
                    floats = t;
                }
            }
        }
        return t;
    }
}

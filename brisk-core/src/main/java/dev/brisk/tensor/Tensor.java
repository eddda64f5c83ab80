package dev.brisk.tensor;

import java.util.Arrays;

/**
 * A dense row-major tensor: a shape and a window {@code [offset, offset + size)} of a float array.
 *
 * <p>Several tensors may view one array (the compiled executor packs many into planned buffers), so kernels
 * always honour {@link #offset()}.
 */
public final class Tensor {
    private final Shape shape;
    private final DType dtype;
    private final float[] data;
    private final int offset;

    private Tensor(Shape shape, DType dtype, float[] data, int offset) {
        if (offset < 0 || offset + shape.size() > data.length) {
            throw new IllegalArgumentException("tensor of shape " + shape + " at offset " + offset
                    + " does not fit in a buffer of " + data.length + " floats");
        }
        this.shape = shape;
        this.dtype = dtype;
        this.data = data;
        this.offset = offset;
    }

    /**
     * Spare floats at the end of every array Brisk allocates for tensors. Vector kernels read and write a row's
     * last, partial vector with a lane mask; the JIT compiles such an access to one masked instruction only when
     * a whole vector would fit in the array, and otherwise runs a slow path that allocates. 64 floats cover the
     * widest vectors (2048 bits).
     */
    public static final int TAIL_PADDING = 64;

    /**
     * Zeroed storage for {@code size} floats, with {@link #TAIL_PADDING} spare floats after them.
     *
     * @param size the number of floats the tensor holds
     * @return a new array of {@code size + TAIL_PADDING} zeros
     */
    public static float[] storage(int size) {
        return new float[size + TAIL_PADDING];
    }

    /**
     * True if {@code data} has {@link #TAIL_PADDING} spare floats after {@code offset + size}.
     *
     * @param data the backing array
     * @param offset where the tensor's elements start in {@code data}
     * @param size the number of elements
     * @return whether kernels may use masked vector accesses on the last partial vector without a slow path
     */
    public static boolean hasTailPadding(float[] data, int offset, int size) {
        return data.length - (long) offset - size >= TAIL_PADDING;
    }

    /**
     * A new zero-filled float32 tensor.
     *
     * @param shape the shape
     * @return a tensor that owns new, padded storage
     */
    public static Tensor zeros(Shape shape) {
        return new Tensor(shape, DType.FLOAT32, storage(shape.size()), 0);
    }

    /**
     * A new zero-filled float32 tensor.
     *
     * @param dims the dimensions, outermost first
     * @return a tensor that owns new, padded storage
     */
    public static Tensor zeros(int... dims) {
        return zeros(Shape.of(dims));
    }

    /**
     * A float32 tensor that owns a copy of {@code values}.
     *
     * @param values the elements in row-major order; its length must equal the product of {@code dims}
     * @param dims the dimensions, outermost first
     * @return a tensor with its own padded copy of the values
     */
    public static Tensor of(float[] values, int... dims) {
        Shape s = Shape.of(dims);
        if (s.size() != values.length) {
            throw new IllegalArgumentException(values.length + " values do not fill shape " + s);
        }
        float[] data = storage(values.length);
        System.arraycopy(values, 0, data, 0, values.length);
        return new Tensor(s, DType.FLOAT32, data, 0);
    }

    /**
     * A rank-0 tensor holding {@code value}.
     *
     * @param value the element
     * @return a tensor of shape {@code []}
     */
    public static Tensor scalar(float value) {
        float[] data = storage(1);
        data[0] = value;
        return new Tensor(Shape.scalar(), DType.FLOAT32, data, 0);
    }

    /**
     * A tensor that views {@code data} from {@code offset} without copying.
     *
     * @param data the backing array, shared with the caller
     * @param offset index of the first element in {@code data}
     * @param shape the shape; {@code offset + shape.size()} must fit in {@code data}
     * @return a view; writes through it change {@code data}
     */
    public static Tensor wrap(float[] data, int offset, Shape shape) {
        return new Tensor(shape, DType.FLOAT32, data, offset);
    }

    /**
     * A tensor of {@code dtype} that views {@code data} from {@code offset} without copying (an {@link DType#INT32}
     * tensor's elements are raw int bits).
     *
     * @param data the backing array, shared with the caller
     * @param offset index of the first element in {@code data}
     * @param shape the shape; {@code offset + shape.size()} must fit in {@code data}
     * @param dtype the element type
     * @return a view; writes through it change {@code data}
     */
    public static Tensor wrap(float[] data, int offset, Shape shape, DType dtype) {
        return new Tensor(shape, dtype, data, offset);
    }

    /**
     * A new zero-filled tensor of {@code dtype} (int 0 and float 0 have the same bits).
     *
     * @param shape the shape
     * @param dtype the element type
     * @return a tensor that owns new, padded storage
     */
    public static Tensor zeros(Shape shape, DType dtype) {
        return new Tensor(shape, dtype, storage(shape.size()), 0);
    }

    /**
     * An {@link DType#INT32} tensor holding {@code values} exactly (token ids, indexes).
     *
     * @param values the elements in row-major order; its length must equal the product of {@code dims}
     * @param dims the dimensions, outermost first
     * @return a tensor with its own padded storage holding the values' bits
     * @throws IllegalArgumentException if the values do not fill the shape
     */
    public static Tensor ofInts(int[] values, int... dims) {
        Shape s = Shape.of(dims);
        if (s.size() != values.length) {
            throw new IllegalArgumentException(values.length + " values do not fill shape " + s);
        }
        float[] data = storage(values.length);
        for (int i = 0; i < values.length; i++) {
            data[i] = Float.intBitsToFloat(values[i]);
        }
        return new Tensor(s, DType.INT32, data, 0);
    }

    /**
     * The int element at a flat row-major index of an {@link DType#INT32} tensor.
     *
     * @param flatIndex an index in {@code [0, size())}
     * @return the element
     * @throws IllegalStateException if the tensor is not INT32
     */
    public int intAt(int flatIndex) {
        requireInts();
        return Float.floatToRawIntBits(data[offset + flatIndex]);
    }

    /**
     * A copy of the elements of an {@link DType#INT32} tensor as ints.
     *
     * @return a new array of {@code size()} ints
     * @throws IllegalStateException if the tensor is not INT32
     */
    public int[] toIntArray() {
        requireInts();
        int[] out = new int[size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = Float.floatToRawIntBits(data[offset + i]);
        }
        return out;
    }

    private void requireInts() {
        if (dtype != DType.INT32) {
            throw new IllegalStateException("tensor " + shape + " is " + dtype + ", not INT32");
        }
    }

    /**
     * The tensor's shape.
     *
     * @return the shape
     */
    public Shape shape() {
        return shape;
    }

    /**
     * The element type: {@link DType#FLOAT32}, or {@link DType#INT32} for integer tensors ({@link #ofInts}).
     *
     * @return the element type
     */
    public DType dtype() {
        return dtype;
    }

    /**
     * The backing array; elements live at {@code [offset(), offset() + size())}.
     *
     * @return the backing array itself, not a copy
     */
    public float[] data() {
        return data;
    }

    /**
     * Index of the tensor's first element in {@link #data()}.
     *
     * @return the offset in elements
     */
    public int offset() {
        return offset;
    }

    /**
     * The number of elements, the product of the shape's dimensions.
     *
     * @return the element count
     */
    public int size() {
        return shape.size();
    }

    /**
     * The same elements viewed with another shape of equal size.
     *
     * @param newShape a shape with the same number of elements
     * @return a view sharing this tensor's storage
     */
    public Tensor reshape(Shape newShape) {
        if (newShape.size() != shape.size()) {
            throw new IllegalArgumentException("cannot reshape " + shape + " to " + newShape);
        }
        return new Tensor(newShape, dtype, data, offset);
    }

    /**
     * Element at a flat row-major index.
     *
     * @param flatIndex an index in {@code [0, size())}
     * @return the element
     */
    public float get(int flatIndex) {
        return data[offset + flatIndex];
    }

    /**
     * Element at a multi-dimensional index.
     *
     * @param index one index per dimension, outermost first
     * @return the element
     */
    public float at(int... index) {
        return data[offset + flatIndex(index)];
    }

    /**
     * Sets the element at a flat row-major index.
     *
     * @param flatIndex an index in {@code [0, size())}
     * @param value the new value
     */
    public void set(int flatIndex, float value) {
        data[offset + flatIndex] = value;
    }

    private int flatIndex(int[] index) {
        if (index.length != shape.rank()) {
            throw new IllegalArgumentException("index of rank " + index.length + " for shape " + shape);
        }
        int flat = 0;
        for (int i = 0; i < index.length; i++) {
            flat = flat * shape.dim(i) + index[i];
        }
        return flat;
    }

    /**
     * A copy of the elements as a new array.
     *
     * @return a new, unpadded array of {@code size()} floats
     */
    public float[] toArray() {
        return Arrays.copyOfRange(data, offset, offset + size());
    }

    /**
     * A deep copy that owns its storage.
     *
     * @return a new tensor with the same shape and elements
     */
    public Tensor copy() {
        float[] copy = storage(size());
        System.arraycopy(data, offset, copy, 0, size());
        return new Tensor(shape, dtype, copy, 0);
    }

    /**
     * Copies the elements of {@code src} (same size) into this tensor.
     *
     * @param src a tensor with the same number of elements; its shape may differ
     */
    public void copyFrom(Tensor src) {
        if (src.size() != size()) {
            throw new IllegalArgumentException("cannot copy " + src.shape + " into " + shape);
        }
        System.arraycopy(src.data, src.offset, data, offset, size());
    }

    /**
     * Rows {@code [from, to)} along the first axis, as a view.
     *
     * @param from first row, inclusive
     * @param to last row, exclusive
     * @return a tensor of shape {@code [to - from, ...]} sharing this tensor's storage
     */
    public Tensor slice(int from, int to) {
        int row = shape.size() / Math.max(1, shape.dim(0));
        return new Tensor(shape.withDim(0, to - from), dtype, data, offset + from * row);
    }

    @Override
    public String toString() {
        int n = Math.min(size(), 8);
        StringBuilder sb = new StringBuilder("Tensor").append(shape).append(dtype == DType.INT32 ? " int32 [" : " [");
        for (int i = 0; i < n; i++) {
            sb.append(i > 0 ? ", " : "");
            if (dtype == DType.INT32) {
                sb.append(Float.floatToRawIntBits(get(i)));
            } else {
                sb.append(get(i));
            }
        }
        return sb.append(size() > n ? ", ...]" : "]").toString();
    }
}

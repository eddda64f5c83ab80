package dev.brisk.tensor;

import java.util.Arrays;

/**
 * An immutable tensor shape (row-major dimensions) with NumPy broadcasting rules. A per-sample shape that a model
 * declares may leave axes {@link #OPEN} (Keras' {@code None}: a sequence length that differs from batch to batch);
 * such a shape describes data, never a tensor, and has no {@link #size()}. Every tensor's shape is concrete.
 */
public final class Shape {
    /**
     * The size of an axis left open (Keras' {@code None} in {@code Input(shape=(None, 8))}): each batch gives its
     * own. Only the shapes a model declares and infers from its inputs hold it; the graph's ops see batches'
     * concrete sizes.
     */
    public static final int OPEN = -1;
    private static final Shape SCALAR = new Shape(new int[0]);
    private final int[] dims;
    /** The number of elements, or -1 when an axis is open. */
    private final long size;

    private Shape(int[] dims) {
        long s = 1;
        for (int d : dims) {
            if (d < 0 && d != OPEN) {
                throw new IllegalArgumentException("negative dimension in shape " + Arrays.toString(dims));
            }
            s *= d;
        }
        this.dims = dims;
        this.size = hasOpen(dims) ? -1 : s;
    }

    private static boolean hasOpen(int[] dims) {
        for (int d : dims) {
            if (d == OPEN) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether an axis is left {@link #OPEN}.
     *
     * @return true when some axis has no size of its own
     */
    public boolean isOpen() {
        return size < 0;
    }

    /**
     * Whether data of shape {@code concrete} fits this shape: the same rank, and every axis the same size or open
     * here.
     *
     * @param concrete the shape to check (may itself have open axes, which then must be open here too)
     * @return true when it fits
     */
    public boolean accepts(Shape concrete) {
        if (concrete.dims.length != dims.length) {
            return false;
        }
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] != OPEN && dims[i] != concrete.dims[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * A shape with the given dimensions.
     *
     * @param dims the dimensions, outermost first; copied
     * @return the shape
     */
    public static Shape of(int... dims) {
        return dims.length == 0 ? SCALAR : new Shape(dims.clone());
    }

    /**
     * The rank-0 shape.
     *
     * @return the shape of a scalar: no dimensions, one element
     */
    public static Shape scalar() {
        return SCALAR;
    }

    /**
     * The number of dimensions (0 for a scalar).
     *
     * @return the rank
     */
    public int rank() {
        return dims.length;
    }

    /**
     * Dimension {@code i}; negative indexes count from the end as in Python.
     *
     * @param i the axis, from {@code -rank()} to {@code rank() - 1}
     * @return the size of that dimension
     */
    public int dim(int i) {
        return dims[i < 0 ? dims.length + i : i];
    }

    /**
     * The dimensions, outermost first.
     *
     * @return a copy of the dimensions; changing it does not change this shape
     */
    public int[] dims() {
        return dims.clone();
    }

    /**
     * Number of elements.
     *
     * @return the product of the dimensions (1 for a scalar)
     * @throws IllegalArgumentException when an axis is {@link #OPEN}
     */
    public int size() {
        if (size < 0) {
            throw new IllegalArgumentException("shape " + this + " has an open axis (None): its size is known only "
                    + "once a batch arrives");
        }
        if (size > Integer.MAX_VALUE) {
            throw new IllegalStateException("tensor too large: " + this);
        }
        return (int) size;
    }

    /**
     * Row-major strides in elements.
     *
     * @return for each axis, the distance in elements between neighbours along it; the last axis has stride 1
     */
    public int[] strides() {
        int[] s = new int[dims.length];
        int acc = 1;
        for (int i = dims.length - 1; i >= 0; i--) {
            s[i] = acc;
            acc *= dims[i];
        }
        return s;
    }

    /**
     * This shape with the first dimension replaced (used to rebind the batch size).
     *
     * @param axis the axis to replace
     * @param value its new size
     * @return a new shape; this one is unchanged
     */
    public Shape withDim(int axis, int value) {
        int[] d = dims.clone();
        d[axis < 0 ? d.length + axis : axis] = value;
        return new Shape(d);
    }

    /**
     * The dimensions after the first one.
     *
     * @return the shape of one item along the first axis, e.g. {@code [32, 28, 28]} gives {@code [28, 28]}
     */
    public Shape dropFirst() {
        return new Shape(Arrays.copyOfRange(dims, 1, dims.length));
    }

    /**
     * A new shape with {@code first} prepended.
     *
     * @param first the new outermost dimension, e.g. a batch size
     * @return a new shape of rank {@code rank() + 1}
     */
    public Shape prepend(int first) {
        int[] d = new int[dims.length + 1];
        d[0] = first;
        System.arraycopy(dims, 0, d, 1, dims.length);
        return new Shape(d);
    }

    /**
     * The NumPy broadcast of two shapes.
     *
     * @param a one shape
     * @param b the other shape
     * @return the shape both broadcast to: axes aligned from the right, where a size of 1 stretches to the other's size
     * @throws IllegalArgumentException naming both shapes when they are incompatible
     */
    public static Shape broadcast(Shape a, Shape b) {
        int rank = Math.max(a.rank(), b.rank());
        int[] out = new int[rank];
        for (int i = 0; i < rank; i++) {
            int da = i < rank - a.rank() ? 1 : a.dims[i - (rank - a.rank())];
            int db = i < rank - b.rank() ? 1 : b.dims[i - (rank - b.rank())];
            if (da != db && da != 1 && db != 1) {
                throw new IllegalArgumentException("shapes " + a + " and " + b + " cannot be broadcast together");
            }
            out[i] = da == 1 ? db : da;
        }
        return new Shape(out);
    }

    /**
     * Strides for reading a tensor of this shape as if broadcast to {@code target}: broadcast axes get stride 0.
     *
     * @param target a shape this one broadcasts to
     * @return strides of rank {@code target.rank()}, in elements of this shape's storage
     */
    public int[] broadcastStrides(Shape target) {
        int[] own = strides();
        int[] out = new int[target.rank()];
        int offset = target.rank() - rank();
        for (int i = 0; i < target.rank(); i++) {
            int j = i - offset;
            out[i] = (j < 0 || dims[j] == 1) ? 0 : own[j];
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Shape s && Arrays.equals(dims, s.dims);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(dims);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < dims.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(dims[i] == OPEN ? "None" : String.valueOf(dims[i]));
        }
        if (dims.length == 1) {
            sb.append(',');
        }
        return sb.append(')').toString();
    }
}

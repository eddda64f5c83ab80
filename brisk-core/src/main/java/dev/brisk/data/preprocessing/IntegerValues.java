package dev.brisk.data.preprocessing;

import dev.brisk.tensor.DType;
import dev.brisk.tensor.Tensor;

/** Reads the integer values that the lookup and encoding functions take, from INT32 or float32 tensors. */
final class IntegerValues {
    private IntegerValues() {
    }

    /**
     * Element {@code i} of {@code t} as an integer.
     *
     * @param what the function, for the message
     * @throws IllegalArgumentException naming the element when a float is not an integer
     */
    static long at(Tensor t, int i, String what) {
        if (t.dtype() == DType.INT32) {
            return t.intAt(i);
        }
        float v = t.get(i);
        if (v != Math.rint(v) || Float.isInfinite(v)) {
            throw new IllegalArgumentException(what + ": value " + v + " at index " + i + " is not an integer");
        }
        return (long) v;
    }
}

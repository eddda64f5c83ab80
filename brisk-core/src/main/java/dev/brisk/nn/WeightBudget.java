package dev.brisk.nn;

import dev.brisk.tensor.Shape;
import java.util.function.Supplier;

/**
 * A cap on the weights that layers may create while a model is built from a file that nobody vouches for: a config
 * that declares a layer of a billion units is refused, naming the layer, before its weights are allocated (a model
 * file's weights can only be as large as the file). Outside {@link #within} there is no cap.
 */
public final class WeightBudget {
    private static final ThreadLocal<long[]> REMAINING = new ThreadLocal<>();

    private WeightBudget() {
    }

    /**
     * Runs {@code build} with at most {@code maxFloats} weight scalars to be created on this thread, all layers
     * together.
     *
     * @param maxFloats the most weight scalars the layers built inside may create
     * @param build builds the model
     * @param <T> what {@code build} returns
     * @return what {@code build} returns
     * @throws IllegalArgumentException naming the layer and weight that would go over the cap
     */
    public static <T> T within(long maxFloats, Supplier<T> build) {
        long[] outer = REMAINING.get();
        REMAINING.set(new long[] {maxFloats});
        try {
            return build.get();
        } finally {
            if (outer == null) {
                REMAINING.remove();
            } else {
                REMAINING.set(outer);
            }
        }
    }

    /** Takes a weight's scalars from the cap in force, if any; throws before anything is allocated. */
    static void take(String layer, String weight, Shape shape) {
        long[] remaining = REMAINING.get();
        if (remaining == null) {
            return;
        }
        long size = 1;
        for (int d : shape.dims()) {
            size = Math.multiplyExact(size, (long) d);
        }
        if (size > remaining[0]) {
            throw new IllegalArgumentException("layer '" + layer + "' declares weight '" + weight + "' of shape "
                    + shape + " (" + size + " values), more than the file's weights can hold (" + remaining[0]
                    + " values left)");
        }
        remaining[0] -= size;
    }
}

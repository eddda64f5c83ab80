package dev.brisk.onnx;

import dev.brisk.ops.Attrs;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Field-by-field comparison and description of attribute records (their arrays compared by content). */
final class Attributes {
    private Attributes() {
    }

    /**
     * Whether two attribute values are equal field by field, arrays by content.
     *
     * @param a one
     * @param b the other
     * @return true when equal
     */
    static boolean same(Attrs a, Attrs b) {
        if (a == null || b == null || a.getClass() != b.getClass()) {
            return a == b;
        }
        return Arrays.deepEquals(values(a), values(b));
    }

    /**
     * The fields of an attribute record as {@code name=value} pairs, arrays written out.
     *
     * @param a the attributes
     * @return the description
     */
    static String describe(Attrs a) {
        if (a == null || a.getClass().getRecordComponents() == null) {
            return String.valueOf(a);
        }
        RecordComponent[] components = a.getClass().getRecordComponents();
        Object[] values = values(a);
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < components.length; i++) {
            parts.add(components[i].getName() + "=" + Arrays.deepToString(new Object[] {values[i]})
                    .replaceAll("^\\[|\\]$", ""));
        }
        return String.join(", ", parts);
    }

    private static Object[] values(Attrs a) {
        RecordComponent[] components = a.getClass().getRecordComponents();
        if (components == null) {
            return new Object[] {a};
        }
        Object[] values = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            try {
                values[i] = components[i].getAccessor().invoke(a);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("cannot read " + components[i] + " of " + a, e);
            }
        }
        return values;
    }
}

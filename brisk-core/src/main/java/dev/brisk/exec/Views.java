package dev.brisk.exec;

import dev.brisk.ops.AxisAttrs;
import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
import dev.brisk.tensor.Shape;

/**
 * The values a plan keeps in their input's storage instead of a buffer of their own, with no kernel call: a
 * reshape, and a slice whose every axis before the sliced one has size 1 (a leading-axis slice, such as one part of
 * a packed gradient), whose elements are one contiguous range of its input. A slice of a variable is copied: an
 * update changes a variable in place, and the slice's readers may run after it.
 */
final class Views {
    private Views() {
    }

    /** True when {@code n}, whose input's storage belongs to {@code root}, is a view of that storage. */
    static boolean viewsInput(Node n, Node root) {
        return switch (n.op()) {
            case RESHAPE -> true;
            case SLICE -> root.op() != OpType.VARIABLE && contiguous(n);
            default -> false;
        };
    }

    /** Where slice {@code n}'s elements start within its input, in elements. */
    static int offsetOf(Node n) {
        if (n.op() != OpType.SLICE) {
            return 0;
        }
        AxisAttrs a = n.attrs(AxisAttrs.class);
        Shape in = n.input(0).shape();
        int ax = axis(a, in);
        int inner = 1;
        for (int d = ax + 1; d < in.rank(); d++) {
            inner *= in.dim(d);
        }
        return a.start() * inner;
    }

    /** True for a slice whose axes before the sliced one all have size 1. */
    private static boolean contiguous(Node n) {
        Shape in = n.input(0).shape();
        int ax = axis(n.attrs(AxisAttrs.class), in);
        for (int d = 0; d < ax; d++) {
            if (in.dim(d) != 1) {
                return false;
            }
        }
        return true;
    }

    private static int axis(AxisAttrs a, Shape in) {
        return a.axis() < 0 ? in.rank() + a.axis() : a.axis();
    }
}

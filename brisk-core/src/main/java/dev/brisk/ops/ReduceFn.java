package dev.brisk.ops;

/** Reductions over a set of axes. */
public enum ReduceFn {
    /** The sum of the reduced elements. */
    SUM,
    /** The largest of the reduced elements. */
    MAX
}

package dev.brisk.ops;

/** Reductions over a set of axes. */
public enum ReduceFn {
    SUM, MAX
}

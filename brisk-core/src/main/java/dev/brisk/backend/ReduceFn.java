package dev.brisk.backend;

/** Reductions over a set of axes. */
public enum ReduceFn {
    SUM, MAX
}

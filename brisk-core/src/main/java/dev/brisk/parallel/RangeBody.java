package dev.brisk.parallel;

/** The body of a parallel loop: processes the index range {@code [from, to)}. */
@FunctionalInterface
public interface RangeBody {
    void run(int from, int to);
}

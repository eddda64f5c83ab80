package dev.brisk.parallel;

/** The body of a parallel loop: processes the index range {@code [from, to)}. */
@FunctionalInterface
public interface RangeBody {
    /**
     * Processes the indexes {@code [from, to)}.
     *
     * @param from first index, inclusive
     * @param to last index, exclusive
     */
    void run(int from, int to);
}

package dev.brisk.data;

/**
 * An element of a zipped pipeline ({@link Pipeline#zip(Pipeline)}): one element of each input.
 *
 * @param first the element of the pipeline {@code zip} was called on
 * @param second the element of the other pipeline
 * @param <A> the element type of the pipeline {@code zip} was called on
 * @param <B> the element type of the other pipeline
 */
public record Pair<A, B>(A first, B second) {
}

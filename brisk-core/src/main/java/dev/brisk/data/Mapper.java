package dev.brisk.data;

/** A map function as stages run it: with the pass number and the element's position, for random maps. */
@FunctionalInterface
interface Mapper<T, R> {
    R apply(T element, long pass, long index);
}

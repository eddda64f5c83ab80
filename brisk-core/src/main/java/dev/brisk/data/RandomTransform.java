package dev.brisk.data;

import java.util.SplittableRandom;
import java.util.function.BiFunction;

/**
 * A map function that draws random numbers, such as an image augmentation. {@link Pipeline#map(RandomTransform)}
 * gives each element its own generator, seeded from {@link #seed()}, the iteration (epoch) and the element's
 * position, so the results do not depend on which worker thread runs the function or in what order.
 *
 * @param <T> the input element type
 * @param <R> the result type
 */
public interface RandomTransform<T, R> {

    /**
     * Transforms one element, drawing only from {@code random}.
     *
     * @param element the element
     * @param random the element's own generator
     * @return the transformed element
     */
    R apply(T element, SplittableRandom random);

    /**
     * The seed this transformation's random numbers derive from.
     *
     * @return the seed
     */
    long seed();

    /**
     * A random transformation from a function and a seed.
     *
     * @param <T> the input element type
     * @param <R> the result type
     * @param seed the seed
     * @param fn the function, given each element and its generator
     * @return the transformation
     */
    static <T, R> RandomTransform<T, R> of(long seed, BiFunction<? super T, SplittableRandom, ? extends R> fn) {
        return new RandomTransform<>() {
            @Override
            public R apply(T element, SplittableRandom random) {
                return fn.apply(element, random);
            }

            @Override
            public long seed() {
                return seed;
            }
        };
    }

    /**
     * The generator for element {@code index} of iteration {@code iteration} under {@code seed}: the three are
     * mixed with SplitMix64's finaliser so that neighbouring seeds, iterations and elements get unrelated streams.
     *
     * @param seed the transformation's seed
     * @param iteration the pass (epoch), from 0
     * @param index the element's position in the pass, from 0
     * @return a new generator
     */
    static SplittableRandom generator(long seed, long iteration, long index) {
        return new SplittableRandom(mix(mix(mix(seed) + iteration) + index));
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}

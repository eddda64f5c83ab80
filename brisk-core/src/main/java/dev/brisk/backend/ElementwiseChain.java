package dev.brisk.backend;

import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.UnaryFn;
import java.util.List;

/**
 * A chain of elementwise ops that {@link Kernels#elementwiseChain} runs as one pass: each step is a unary or binary
 * function whose operands are the previous step's value or one of the chain's inputs, and every step's value has
 * {@code size} elements. An input is read whole ({@link Broadcast#FULL}), as a vector repeated along the last axis
 * ({@link Broadcast#ROW}, {@code rowLength} long: a bias or a per-channel scale), or as one value
 * ({@link Broadcast#SCALAR}); these are the broadcasts the separate binary kernel runs as rows stepping by 1 or 0.
 *
 * @param steps the steps, in the order they compute; the last one's value is the chain's result
 * @param inputs how each input is read, by input index
 * @param size the number of elements of every step's value
 * @param rowLength the length of the last axis, along which a {@link Broadcast#ROW} input repeats
 */
public record ElementwiseChain(List<Step> steps, List<Broadcast> inputs, int size, int rowLength) {
    /** The operand code of the previous step's value. */
    public static final int PREVIOUS = -1;

    /**
     * Checks that every operand names the previous step (not in the first step) or an input, and that no unary step
     * reads a scalar (its value would not have the chain's size).
     */
    public ElementwiseChain {
        steps = List.copyOf(steps);
        inputs = List.copyOf(inputs);
        if (steps.isEmpty() || size < 1 || rowLength < 1 || size % rowLength != 0) {
            throw new IllegalArgumentException("elementwise chain of " + steps.size() + " steps over " + size
                    + " elements in rows of " + rowLength);
        }
        for (int s = 0; s < steps.size(); s++) {
            Step step = steps.get(s);
            for (int operand : step.binary() == null ? new int[] {step.left()}
                    : new int[] {step.left(), step.right()}) {
                if (operand < PREVIOUS || operand >= inputs.size() || (s == 0 && operand == PREVIOUS)) {
                    throw new IllegalArgumentException("step " + s + " of an elementwise chain reads operand "
                            + operand + " of " + inputs.size() + " inputs");
                }
            }
            if (step.unary() != null && step.left() != PREVIOUS && inputs.get(step.left()) == Broadcast.SCALAR) {
                throw new IllegalArgumentException("step " + s + " of an elementwise chain applies " + step.unary()
                        + " to a broadcast scalar");
            }
        }
    }

    /** How an input of the chain is read for each element. */
    public enum Broadcast {
        /** One value per element. */
        FULL,
        /** A vector as long as the last axis, repeated over the others. */
        ROW,
        /** One value for every element. */
        SCALAR
    }

    /**
     * One op of the chain: {@code unary(left)} when {@code unary} is set, else {@code binary(left, right)}.
     *
     * @param unary the unary function, or null for a binary step
     * @param binary the binary function, or null for a unary step
     * @param alpha the function's parameter (as for {@link Kernels#unary} and {@link Kernels#binary})
     * @param left the first operand: {@link #PREVIOUS} or an input index
     * @param right the second operand of a binary step: {@link #PREVIOUS} or an input index
     */
    public record Step(UnaryFn unary, BinaryFn binary, float alpha, int left, int right) {
        /** Checks that exactly one function is set. */
        public Step {
            if ((unary == null) == (binary == null)) {
                throw new IllegalArgumentException("an elementwise step has one function, unary or binary");
            }
        }

        /**
         * The step {@code fn(operand)}.
         *
         * @param fn the function
         * @param alpha its parameter
         * @param operand {@link #PREVIOUS} or an input index
         * @return the step
         */
        public static Step unary(UnaryFn fn, float alpha, int operand) {
            return new Step(fn, null, alpha, operand, PREVIOUS);
        }

        /**
         * The step {@code fn(left, right)}.
         *
         * @param fn the function
         * @param alpha its parameter
         * @param left the first operand: {@link #PREVIOUS} or an input index
         * @param right the second operand: {@link #PREVIOUS} or an input index
         * @return the step
         */
        public static Step binary(BinaryFn fn, float alpha, int left, int right) {
            return new Step(null, fn, alpha, left, right);
        }
    }
}

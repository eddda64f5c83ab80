package dev.brisk.nn;

import dev.brisk.tensor.Tensor;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A projection applied to a weight after each optimizer step, as Keras applies {@code kernel_constraint} and
 * {@code bias_constraint} after {@code apply_gradients}: the weight is overwritten with {@link #apply} of itself.
 * It runs on the host, in double, between steps, so compiled and eager training apply the same projection.
 */
@FunctionalInterface
public interface Constraint {
    /** Keras' {@code backend.epsilon()}, which the norm constraints add to the norm they divide by. */
    double EPSILON = 1e-7;

    /**
     * Projects {@code w} in place.
     *
     * @param w the weight's value, overwritten
     */
    void apply(Tensor w);

    /**
     * Keras' {@code MaxNorm(max_value, axis)}: each slice's L2 norm over {@code axes} is clipped to
     * {@code maxValue} ({@code w * clip(norm, 0, maxValue) / (epsilon + norm)}). For a Dense kernel (in, out) the
     * default axis 0 bounds each unit's incoming weights; for a Conv2D kernel use axes 0, 1, 2.
     *
     * @param maxValue the largest norm (Keras' default 2)
     * @param axes the axes the norm runs over (Keras' default 0)
     * @return the constraint
     */
    static Constraint maxNorm(float maxValue, int... axes) {
        return new MaxNorm(maxValue, axes.length == 0 ? new int[] {0} : axes.clone());
    }

    /**
     * Keras' {@code NonNeg}: negative elements become 0.
     *
     * @return the constraint
     */
    static Constraint nonNeg() {
        return new NonNeg();
    }

    /**
     * Keras' {@code UnitNorm(axis)}: each slice is divided by {@code epsilon +} its L2 norm over {@code axes}.
     *
     * @param axes the axes the norm runs over (Keras' default 0)
     * @return the constraint
     */
    static Constraint unitNorm(int... axes) {
        return new UnitNorm(axes.length == 0 ? new int[] {0} : axes.clone());
    }

    /**
     * Keras' {@code MaxNorm}.
     *
     * @param maxValue the largest norm
     * @param axes the axes the norm runs over
     */
    record MaxNorm(float maxValue, int[] axes) implements Constraint, dev.brisk.io.KerasObject {
        /**
         * Checks the bound.
         *
         * @param maxValue the largest norm, positive
         * @param axes the axes the norm runs over
         */
        public MaxNorm {
            if (!(maxValue > 0) || Float.isInfinite(maxValue)) {
                throw new IllegalArgumentException("MaxNorm: max_value must be a positive number, got " + maxValue);
            }
        }

        @Override
        public void apply(Tensor w) {
            Norms.scale(w, axes, "MaxNorm", norm -> Math.min(norm, maxValue) / (EPSILON + norm));
        }

        @Override
        public String kerasClassName() {
            return "MaxNorm";
        }

        @Override
        public Map<String, Object> kerasConfig() {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("max_value", maxValue);
            c.put("axis", Norms.axisConfig(axes));
            return c;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof MaxNorm m && m.maxValue == maxValue && Arrays.equals(m.axes, axes);
        }

        @Override
        public int hashCode() {
            return Float.hashCode(maxValue) * 31 + Arrays.hashCode(axes);
        }

        @Override
        public String toString() {
            return "MaxNorm[maxValue=" + maxValue + ", axes=" + Arrays.toString(axes) + "]";
        }
    }

    /** Keras' {@code NonNeg}. */
    record NonNeg() implements Constraint, dev.brisk.io.KerasObject {
        @Override
        public void apply(Tensor w) {
            for (int i = 0; i < w.size(); i++) {
                if (w.get(i) < 0) {
                    w.set(i, 0f);
                }
            }
        }

        @Override
        public String kerasClassName() {
            return "NonNeg";
        }

        @Override
        public Map<String, Object> kerasConfig() {
            return Map.of();
        }
    }

    /**
     * Keras' {@code UnitNorm}.
     *
     * @param axes the axes the norm runs over
     */
    record UnitNorm(int[] axes) implements Constraint, dev.brisk.io.KerasObject {
        @Override
        public void apply(Tensor w) {
            Norms.scale(w, axes, "UnitNorm", norm -> 1 / (EPSILON + norm));
        }

        @Override
        public String kerasClassName() {
            return "UnitNorm";
        }

        @Override
        public Map<String, Object> kerasConfig() {
            return Map.of("axis", Norms.axisConfig(axes));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof UnitNorm u && Arrays.equals(u.axes, axes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(axes);
        }

        @Override
        public String toString() {
            return "UnitNorm[axes=" + Arrays.toString(axes) + "]";
        }
    }
}

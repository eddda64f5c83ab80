package dev.brisk.nn;

import dev.brisk.config.Settings;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A step runner's compiled steps, one per kind of step and concrete shape of the step's data: the shape of every
 * input, target and sample-weight tensor. A fixed-shape model gets one entry per kind and batch size (the last,
 * partial batch is one more shape); a model with an open axis ({@link Shape#OPEN}, a sequence length) gets one per
 * length it is fed, as Keras' {@code tf.function} and JAX's {@code jit} retrace per input shape.
 *
 * <p>The cache holds at most {@link #capacity()} entries ({@code -Dbrisk.planCache}, default 16) and forgets the
 * least recently used one to take a new one: each entry holds its plan's buffers, memory of the size of one step's
 * activations at its shape, so an unbounded cache would grow with every new length a pipeline pads to. Sixteen holds
 * a fixed-shape run's train, evaluation and prediction plans for full and partial batches several times over, and a
 * pipeline whose batches come in a few lengths (bucketed, or padded to a multiple) with their partial batches; a
 * pipeline with more distinct lengths than that retraces the ones it evicted.
 *
 * <p>Looking a step up allocates nothing: a scan of at most {@code capacity} entries comparing shapes, and a hit is
 * moved to the end of the list in place (the least recently used entry is always first).
 *
 * @param <V> what is cached for a step: the traced nodes and their plan
 */
final class PlanCache<V> {
    /** One compiled step: its kind, the shapes it was traced for (null where the step has no such tensor). */
    private record Entry<V>(StepRunner.Kind kind, Shape[] x, Shape[] y, Shape weights, V value) {
    }

    private final int capacity;
    private final List<Entry<V>> entries;
    private int traces;

    PlanCache() {
        this(Settings.planCache());
    }

    PlanCache(int capacity) {
        this.capacity = Math.max(1, capacity);
        this.entries = new ArrayList<>(this.capacity + 1);
    }

    /** The most steps kept at once. */
    int capacity() {
        return capacity;
    }

    /** How many steps were added (traced and planned) over the cache's life, evicted ones included. */
    int traces() {
        return traces;
    }

    /** How many steps are held now. */
    int size() {
        return entries.size();
    }

    /**
     * The step of {@code kind} traced for data of {@code batch}'s shapes (null batch: a step without data, the
     * optimizer's UPDATE), or null. {@code weighted}: whether the step reads the batch's sample weights.
     */
    V find(StepRunner.Kind kind, StepBatch batch, boolean weighted) {
        for (int i = entries.size() - 1; i >= 0; i--) {
            Entry<V> e = entries.get(i);
            if (e.kind() == kind && matches(e, batch, weighted)) {
                if (i != entries.size() - 1) {
                    entries.remove(i);
                    entries.add(e);
                }
                return e.value();
            }
        }
        return null;
    }

    /** Adds the step just traced for {@code batch}'s shapes, forgetting the least recently used one if full. */
    void put(StepRunner.Kind kind, StepBatch batch, boolean weighted, V value) {
        if (entries.size() == capacity) {
            entries.remove(0);
        }
        entries.add(new Entry<>(kind, batch == null ? null : shapes(batch.x()),
                batch == null || batch.y() == null || kind == StepRunner.Kind.PREDICT ? null : shapes(batch.y()),
                weighted ? batch.weights().shape() : null, value));
        traces++;
    }

    /**
     * The most recently used step of {@code kind} whose first input has {@code batchSize} rows and that reads no
     * sample weights, or null (for tests, profiles and the training loop's direct gather).
     */
    V find(StepRunner.Kind kind, int batchSize) {
        for (int i = entries.size() - 1; i >= 0; i--) {
            Entry<V> e = entries.get(i);
            if (e.kind() == kind && e.weights() == null && e.x() != null && e.x().length > 0
                    && e.x()[0].dim(0) == batchSize) {
                return e.value();
            }
        }
        return null;
    }

    /** Forgets the steps whose kind passes {@code drop}. */
    void removeKinds(Predicate<StepRunner.Kind> drop) {
        entries.removeIf(e -> drop.test(e.kind()));
    }

    private static boolean matches(Entry<?> e, StepBatch batch, boolean weighted) {
        if (batch == null) {
            return e.x() == null;
        }
        if (e.x() == null || !same(e.x(), batch.x())) {
            return false;
        }
        if (e.y() != null && (batch.y() == null || !same(e.y(), batch.y()))) {
            return false;
        }
        if (weighted) {
            return e.weights() != null && e.weights().equals(batch.weights().shape());
        }
        return e.weights() == null;
    }

    /** Whether {@code tensors} have exactly {@code shapes}; a loop, no allocation. */
    private static boolean same(Shape[] shapes, Tensor[] tensors) {
        if (shapes.length != tensors.length) {
            return false;
        }
        for (int i = 0; i < shapes.length; i++) {
            if (!shapes[i].equals(tensors[i].shape())) {
                return false;
            }
        }
        return true;
    }

    private static Shape[] shapes(Tensor[] tensors) {
        Shape[] s = new Shape[tensors.length];
        for (int i = 0; i < s.length; i++) {
            s[i] = tensors[i].shape();
        }
        return s;
    }
}

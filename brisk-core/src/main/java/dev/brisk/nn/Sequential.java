package dev.brisk.nn;

import dev.brisk.tensor.Shape;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A plain stack of single-input layers. Starts with an {@link InputLayer} (then it is built at once, with shape
 * errors reported immediately) or is built on first use from the data's shape.
 */
public final class Sequential extends Model {
    private static final AtomicInteger COUNT = new AtomicInteger();
    private final List<Layer> stack = new ArrayList<>();
    private InputLayer input;

    private Sequential(String name) {
        super(name);
    }

    /**
     * A Sequential model of {@code layers}; the first may be an input layer.
     *
     * @param layers the layers, in order
     * @return the model
     */
    public static Sequential of(Layer... layers) {
        Sequential s = new Sequential("sequential" + suffix(COUNT.getAndIncrement()));
        for (Layer l : layers) {
            s.add(l);
        }
        return s;
    }

    /**
     * A Sequential model named {@code name} (a loaded model keeps its saved name).
     *
     * @param name the model's name
     * @param layers the layers, in order; the first may be an input layer
     * @return the model
     */
    public static Sequential named(String name, List<Layer> layers) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a model name must not be empty");
        }
        Sequential s = new Sequential(name);
        for (Layer l : layers) {
            s.add(l);
        }
        return s;
    }

    /**
     * Appends a layer (re-wiring the model if it is already built).
     *
     * @param layer the layer
     * @return this model
     */
    public Sequential add(Layer layer) {
        if (layer instanceof InputLayer in) {
            if (input != null || !stack.isEmpty()) {
                throw new IllegalArgumentException("an input layer can only be the first layer of a Sequential model");
            }
            input = in;
        } else {
            stack.add(layer);
        }
        if (input != null) {
            rewire();
        }
        return this;
    }

    /**
     * Builds the model for samples of shape {@code dims}, without data.
     *
     * @param dims the per-sample input dimensions
     * @return this model
     */
    public Sequential build(int... dims) {
        ensureBuilt(new Shape[] {Shape.of(dims)});
        return this;
    }

    private void rewire() {
        SymbolicTensor t = input.output();
        for (Layer l : stack) {
            t = l.apply(t);
        }
        wire(List.of(input.output()), List.of(t));
    }

    @Override
    protected void ensureBuilt(Shape[] sampleShapes) {
        if (input == null) {
            if (sampleShapes.length != 1) {
                throw new IllegalArgumentException("a Sequential model has one input, got " + sampleShapes.length);
            }
            input = new InputLayer(sampleShapes[0], null);
            try {
                rewire();
            } catch (RuntimeException e) {
                input = null; // a failed build must not leave the model half-built: the next call builds afresh
                throw e;
            }
        }
        super.ensureBuilt(sampleShapes);
    }

    /**
     * True once the input shape is known.
     *
     * @return true once built
     */
    public boolean isBuilt() {
        return input != null;
    }

    @Override
    List<Layer> allLayers() {
        List<Layer> all = new ArrayList<>();
        if (input != null) {
            all.add(input);
        }
        all.addAll(stack);
        return all;
    }

    @Override
    boolean isFunctional() {
        return false;
    }
}

package dev.brisk.nn;

import dev.brisk.io.KerasObject;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An initializer made by one of {@link Initializer}'s factories, which knows its Keras class name and
 * configuration (so a saved model can record it).
 */
final class NamedInitializer implements Initializer, KerasObject {
    private final String className;
    private final Map<String, Object> config;
    private final Initializer impl;

    NamedInitializer(String className, Map<String, Object> config, Initializer impl) {
        this.className = className;
        this.config = Collections.unmodifiableMap(new LinkedHashMap<>(config));
        this.impl = impl;
    }

    /**
     * {@code init} drawing every weight from {@code seed}; a named initializer keeps its class name, with the seed
     * in its config (Keras' {@code seed}), and refuses if its Keras class takes none.
     */
    static Initializer seeded(Initializer init, long seed) {
        if (init instanceof NamedInitializer n) {
            if (!n.config.containsKey("seed")) {
                throw new IllegalArgumentException(n.className + " takes no seed (it draws nothing at random)");
            }
            Map<String, Object> c = new LinkedHashMap<>(n.config);
            c.put("seed", seed);
            return new NamedInitializer(n.className, c, (shape, fanIn, fanOut, s) -> n.impl.create(shape, fanIn,
                    fanOut, seed));
        }
        return (shape, fanIn, fanOut, s) -> init.create(shape, fanIn, fanOut, seed);
    }

    @Override
    public Tensor create(Shape shape, int fanIn, int fanOut, long seed) {
        return impl.create(shape, fanIn, fanOut, seed);
    }

    @Override
    public String kerasClassName() {
        return className;
    }

    @Override
    public Map<String, Object> kerasConfig() {
        return config;
    }

    @Override
    public String toString() {
        return className + config;
    }
}

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

    /** A configuration of alternating keys and values (values may be null, unlike {@link Map#of}). */
    static Map<String, Object> config(Object... keysAndValues) {
        Map<String, Object> c = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            c.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return c;
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

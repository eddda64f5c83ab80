package dev.brisk.io;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An object that describes itself as Keras 3 does in a saved model's {@code config.json}: a class name and a
 * {@code get_config()} dictionary. Brisk's initializers, regularizers, learning-rate schedules and layers made by
 * Brisk's factories implement it, so a whole-model file can record them and a loader can make them again from a
 * fixed registry of class names. The values are JSON-like: null, {@link Boolean}, {@link Number}, {@link String},
 * {@link java.util.List}, {@link Map} with string keys, or another {@code KerasObject} (nested, as Keras nests
 * serialized objects).
 */
public interface KerasObject {
    /**
     * Keras' class name, e.g. {@code GlorotUniform}.
     *
     * @return the class name
     */
    String kerasClassName();

    /**
     * Keras' {@code get_config()}: the arguments that make an equal object.
     *
     * @return the configuration, by Keras' argument names
     */
    Map<String, Object> kerasConfig();

    /**
     * A {@code get_config()} map built from alternating keys and values, in that order; unlike {@link Map#of} the
     * values may be null (Keras' {@code None}) and the map may be added to.
     *
     * @param keysAndValues each Keras key (a string), then its value
     * @return a new, modifiable map in the order given
     */
    static Map<String, Object> config(Object... keysAndValues) {
        if (keysAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("a config needs a value for every key: " + keysAndValues.length
                    + " arguments given");
        }
        Map<String, Object> c = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            c.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return c;
    }
}

package dev.brisk.io;

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
}

package dev.brisk.keras;

import dev.brisk.nn.Layer;

/**
 * Makes a layer from its Keras configuration: one per class name in a {@link KerasRegistry}. A factory reads the
 * options it supports from the {@link ConfigView} and refuses the others with a clear error.
 */
@FunctionalInterface
public interface LayerFactory {
    /**
     * The layer the configuration describes.
     *
     * @param config the layer's {@code config}, with its {@code name}
     * @return a new, unbuilt layer
     */
    Layer create(ConfigView config);
}

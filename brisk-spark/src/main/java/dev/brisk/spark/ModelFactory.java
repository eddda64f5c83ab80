package dev.brisk.spark;

import dev.brisk.nn.Model;
import java.io.Serializable;

/**
 * Builds and compiles the model (layers, optimizer, loss, metrics) on every executor and on the driver: Spark
 * serializes the factory into the task, so it must capture only serializable values. Each call must give a model of
 * the same architecture; the weights it starts with do not matter, since the driver's are broadcast.
 */
@FunctionalInterface
public interface ModelFactory extends Serializable {
    /**
     * A new, compiled model.
     *
     * @return the model
     */
    Model create();
}

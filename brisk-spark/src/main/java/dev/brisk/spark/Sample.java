package dev.brisk.spark;

import java.io.Serializable;

/**
 * One training row as the workers receive it: the features flattened in the model's input layout and the target.
 *
 * @param features the features, as many as the model's input has elements
 * @param label the target (a class index for sparse losses)
 */
public record Sample(float[] features, float label) implements Serializable {
}

package dev.brisk.nn.layers;

import dev.brisk.nn.Activation;
import dev.brisk.nn.Initializer;
import dev.brisk.nn.Layer;
import dev.brisk.nn.Regularizer;
import java.util.Map;

/**
 * The Keras config entries every convolution layer ends with: {@code activation}, {@code use_bias}, then each
 * weight's initializer, each weight's regularizer, {@code activity_regularizer} and each weight's constraint, in
 * Keras' order, so that Conv1D, Conv2D, DepthwiseConv2D, SeparableConv2D and Conv2DTranspose write them alike.
 */
final class ConvConfig {
    /**
     * One weight as its config names it.
     *
     * @param prefix Keras' prefix of its entries ({@code kernel}, {@code depthwise}, {@code pointwise}, {@code bias})
     * @param weightName the layer's name of the weight, under which its constraint is kept
     * @param initializer its initializer
     * @param regularizer its regularizer, or null
     */
    record Weight(String prefix, String weightName, Initializer initializer, Regularizer regularizer) {
        /** The bias of {@code layer}, its regularizer as set on the layer. */
        static Weight bias(Layer layer, Initializer initializer) {
            return new Weight("bias", "bias", initializer, layer.weightRegularizer("bias"));
        }
    }

    private ConvConfig() {
    }

    /**
     * Writes the entries from {@code activation} on.
     *
     * @param config the layer's config so far
     * @param layer the layer, for its activity regularizer and constraints
     * @param activation the output's activation
     * @param useBias whether the layer adds a bias
     * @param weights the weights in Keras' order (the bias last)
     */
    static void putOutput(Map<String, Object> config, Layer layer, Activation activation, boolean useBias,
            Weight... weights) {
        config.put("activation", activation.kerasName());
        config.put("use_bias", useBias);
        for (Weight w : weights) {
            config.put(w.prefix() + "_initializer", w.initializer());
        }
        for (Weight w : weights) {
            config.put(w.prefix() + "_regularizer", w.regularizer());
        }
        config.put("activity_regularizer", layer.activityRegularizer());
        for (Weight w : weights) {
            config.put(w.prefix() + "_constraint", layer.weightConstraint(w.weightName()));
        }
    }
}

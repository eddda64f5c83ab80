package dev.brisk.nn.layers;

import dev.brisk.nn.Initializer;
import dev.brisk.ops.RecurrentCell;

/** Keras' {@code SimpleRNN}: {@code h = tanh(x kernel + h recurrent_kernel + bias)}, bias {@code [units]}. */
public final class SimpleRNN extends Recurrent {
    /**
     * A simple recurrent layer with Keras' initializers (Glorot uniform, orthogonal, zeros).
     *
     * @param units the state size
     * @param returnSequences true to output every step's state
     * @param goBackwards true to process the sequence from its last step
     * @param name the layer's name, or null for an automatic one
     */
    public SimpleRNN(int units, boolean returnSequences, boolean goBackwards, String name) {
        this(units, returnSequences, goBackwards, false, name);
    }

    /**
     * The layer with Keras' {@code return_state}: with it the layer has {@link #outputShapes several outputs}, the
     * output then the final state.
     *
     * @param units the state size
     * @param returnSequences true to output every step's state
     * @param goBackwards true to process the sequence from its last step
     * @param returnState true to output the final state too
     * @param name the layer's name, or null for an automatic one
     */
    public SimpleRNN(int units, boolean returnSequences, boolean goBackwards, boolean returnState, String name) {
        super(RecurrentCell.SIMPLE, units, returnSequences, goBackwards, returnState, Initializer.glorotUniform(),
                Initializer.orthogonal(), Initializer.zeros(), name);
    }
}

package dev.brisk.nn.layers;

import dev.brisk.nn.Initializer;
import dev.brisk.ops.RecurrentCell;

/**
 * Keras' {@code GRU} with {@code reset_after=true} (Keras 3's default, and PyTorch's form): gates {@code z, r, h}
 * in the kernel {@code [features, 3 units]} and the recurrent kernel {@code [units, 3 units]}; the bias is
 * {@code [2, 3 units]}, the input bias then the recurrent one, and the reset gate scales the recurrent part of the
 * candidate after its product.
 */
public final class GRU extends Recurrent {
    /**
     * A GRU layer with Keras' initializers (Glorot uniform, orthogonal, zeros).
     *
     * @param units the state size
     * @param returnSequences true to output every step's state
     * @param goBackwards true to process the sequence from its last step
     * @param name the layer's name, or null for an automatic one
     */
    public GRU(int units, boolean returnSequences, boolean goBackwards, String name) {
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
    public GRU(int units, boolean returnSequences, boolean goBackwards, boolean returnState, String name) {
        super(RecurrentCell.GRU, units, returnSequences, goBackwards, returnState, Initializer.glorotUniform(),
                Initializer.orthogonal(), Initializer.zeros(), name);
    }
}

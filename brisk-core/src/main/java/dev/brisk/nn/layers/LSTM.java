package dev.brisk.nn.layers;

import dev.brisk.nn.Initializer;
import dev.brisk.ops.RecurrentCell;
import dev.brisk.tensor.Tensor;

/**
 * Keras' {@code LSTM}: gates {@code i, f, c, o} in the kernel {@code [features, 4 units]}, the recurrent kernel
 * {@code [units, 4 units]} and the bias {@code [4 units]}, which starts at one for the forget gate and zero
 * elsewhere ({@code unit_forget_bias=true}).
 */
public final class LSTM extends Recurrent {
    /**
     * An LSTM layer with Keras' initializers (Glorot uniform, orthogonal, unit forget bias).
     *
     * @param units the state size
     * @param returnSequences true to output every step's state
     * @param goBackwards true to process the sequence from its last step
     * @param name the layer's name, or null for an automatic one
     */
    public LSTM(int units, boolean returnSequences, boolean goBackwards, String name) {
        this(units, returnSequences, goBackwards, false, name);
    }

    /**
     * The layer with Keras' {@code return_state}: with it the layer has {@link #outputShapes several outputs}, the
     * output then the final states h and c.
     *
     * @param units the state size
     * @param returnSequences true to output every step's state
     * @param goBackwards true to process the sequence from its last step
     * @param returnState true to output the final states too
     * @param name the layer's name, or null for an automatic one
     */
    public LSTM(int units, boolean returnSequences, boolean goBackwards, boolean returnState, String name) {
        super(RecurrentCell.LSTM, units, returnSequences, goBackwards, returnState, Initializer.glorotUniform(),
                Initializer.orthogonal(), unitForgetBias(units), name);
    }

    /** Zeros, except ones over the forget gate's block {@code [units, 2 units)}. */
    private static Initializer unitForgetBias(int units) {
        return (shape, fanIn, fanOut, seed) -> {
            Tensor t = Tensor.zeros(shape);
            for (int j = units; j < 2 * units; j++) {
                t.data()[t.offset() + j] = 1f;
            }
            return t;
        };
    }
}

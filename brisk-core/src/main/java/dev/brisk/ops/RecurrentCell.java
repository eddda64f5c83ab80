package dev.brisk.ops;

/**
 * The cell of a whole-sequence recurrent op, with Keras' gate order in its weights: the kernel is
 * {@code [inputs, gates * units]}, the recurrent kernel {@code [units, gates * units]}, each gate a block of
 * {@code units} columns.
 */
public enum RecurrentCell {
    /** Keras' SimpleRNN: {@code h = tanh(x W + h U + b)}; one block. */
    SIMPLE(1),
    /**
     * Keras' LSTM: blocks {@code i, f, c, o}; {@code c = f c + i tanh(.)}, {@code h = o tanh(c)}, with sigmoid
     * gates.
     */
    LSTM(4),
    /**
     * Keras' GRU with {@code reset_after=true}: blocks {@code z, r, h}, bias {@code [2, 3 units]} (input bias, then
     * recurrent bias); {@code hh = tanh(x W_h + b_h + r (h U_h + b'_h))}, {@code h = z h + (1 - z) hh}.
     */
    GRU(3);

    private final int gates;

    RecurrentCell(int gates) {
        this.gates = gates;
    }

    /**
     * How many blocks of {@code units} columns the kernels have.
     *
     * @return the number of gates
     */
    public int gates() {
        return gates;
    }
}

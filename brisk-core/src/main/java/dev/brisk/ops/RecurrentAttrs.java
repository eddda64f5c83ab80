package dev.brisk.ops;

/**
 * A whole-sequence recurrent op (RECURRENT_SEQUENCE) or its backward pass (RECURRENT_SEQUENCE_GRAD). The op's inputs
 * are {@code x, kernel, recurrent kernel, bias}, then the mask when {@code masked}, then the initial state when
 * {@code initialState}.
 *
 * @param cell the cell
 * @param units the state size
 * @param returnSequences true to output every step's state {@code [batch, steps, units]}, false for the last
 *     {@code [batch, units]}
 * @param goBackwards true to read the input from its last step to its first (the output sequence is then in the
 *     order processed, as Keras gives it)
 * @param inputGradient for the backward op: whether it computes the input's gradient too
 * @param returnState true to append the final states to every row of the output: the output is then
 *     {@code [batch, out + states units]}, {@code out} being {@code steps units} or {@code units}, the states the
 *     final {@code h} (and LSTM's {@code c}) that Keras' {@code return_state} gives
 * @param masked true when a mask {@code [batch, steps]} (nonzero for real steps) follows the weights: a masked step
 *     carries the state through unchanged and its gates get no gradient, as Keras masks
 * @param initialState true when the initial state {@code [batch, states units]} (h, then LSTM's c, in each row)
 *     follows; else the initial state is zero
 * @param zeroOutputForMask true to output zeros at masked steps of the sequence (Keras'
 *     {@code zero_output_for_mask}, which {@code Bidirectional} sets); false repeats the previous output
 * @param outputInTimeOrder with {@code goBackwards} and {@code returnSequences}: true to output the sequence in the
 *     input's time order (as {@code Bidirectional} flips its backward layer's output back), false in the order
 *     processed (Keras' {@code go_backwards} alone)
 */
public record RecurrentAttrs(RecurrentCell cell, int units, boolean returnSequences, boolean goBackwards,
                             boolean inputGradient, boolean returnState, boolean masked, boolean initialState,
                             boolean zeroOutputForMask, boolean outputInTimeOrder) implements Attrs {
    /**
     * A recurrent op without state output, mask or initial state.
     *
     * @param cell the cell
     * @param units the state size
     * @param returnSequences whether every step's state is output
     * @param goBackwards whether the input is read from its last step
     * @param inputGradient for the backward op: whether it computes the input's gradient
     */
    public RecurrentAttrs(RecurrentCell cell, int units, boolean returnSequences, boolean goBackwards,
                          boolean inputGradient) {
        this(cell, units, returnSequences, goBackwards, inputGradient, false, false, false, false, false);
    }

    /**
     * The same op with {@code inputGradient} set.
     *
     * @param needed whether the backward op computes the input's gradient
     * @return the attributes
     */
    public RecurrentAttrs withInputGradient(boolean needed) {
        return new RecurrentAttrs(cell, units, returnSequences, goBackwards, needed, returnState, masked,
                initialState, zeroOutputForMask, outputInTimeOrder);
    }

    /**
     * How many state tensors the cell has: 2 for LSTM ({@code h, c}), else 1.
     *
     * @return the state count
     */
    public int states() {
        return cell == RecurrentCell.LSTM ? 2 : 1;
    }

    /**
     * The input index of the mask, or -1 without one.
     *
     * @return the index
     */
    public int maskInput() {
        return masked ? 4 : -1;
    }

    /**
     * The input index of the initial state, or -1 without one.
     *
     * @return the index
     */
    public int initialStateInput() {
        return initialState ? (masked ? 5 : 4) : -1;
    }
}

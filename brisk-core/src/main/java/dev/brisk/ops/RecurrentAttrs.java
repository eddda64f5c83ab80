package dev.brisk.ops;

/**
 * A whole-sequence recurrent op (RECURRENT_SEQUENCE) or its backward pass (RECURRENT_SEQUENCE_GRAD).
 *
 * @param cell the cell
 * @param units the state size
 * @param returnSequences true to output every step's state {@code [batch, steps, units]}, false for the last
 *     {@code [batch, units]}
 * @param goBackwards true to read the input from its last step to its first (the output sequence is then in the
 *     order processed, as Keras gives it)
 * @param inputGradient for the backward op: whether it computes the input's gradient too
 */
public record RecurrentAttrs(RecurrentCell cell, int units, boolean returnSequences, boolean goBackwards,
                             boolean inputGradient) implements Attrs {
    /**
     * The same op with {@code inputGradient} set.
     *
     * @param needed whether the backward op computes the input's gradient
     * @return the attributes
     */
    public RecurrentAttrs withInputGradient(boolean needed) {
        return new RecurrentAttrs(cell, units, returnSequences, goBackwards, needed);
    }
}

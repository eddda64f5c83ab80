package dev.brisk.ops;

import dev.brisk.tensor.Shape;

/**
 * The sizes of one whole-sequence recurrent op and where its kept state and backward scratch lie. Everything the
 * kernels keep is step-major ({@code [steps, batch, ...]}), so that one step's rows are contiguous for its gemm and
 * all steps' rows together form one matrix for the weight gradients:
 * <ul>
 *   <li>state: the input in processing order {@code xs [steps, batch, inputs]}, the activated gates
 *   {@code [steps, batch, gates units]}, the hidden states {@code h [steps + 1, batch, units]} (row block 0 is the
 *   zero initial state); LSTM adds the cell states {@code c [steps + 1, batch, units]}; GRU adds the recurrent
 *   candidate part {@code hU_h + b'_h} per step {@code [steps, batch, units]} and one step's recurrent product
 *   {@code [batch, gates units]};</li>
 *   <li>scratch (backward): the gates' pre-activation gradients {@code [steps, batch, gates units]}, for GRU also
 *   those of the recurrent product, the running state gradients {@code dh} (and LSTM's {@code dc})
 *   {@code [batch, units]}, a row of ones for the bias sums, and the input gradient in processing order; with a
 *   mask also the masked rows' saved {@code dh} and {@code dc} {@code [batch, units]} each and, per row, the first
 *   processing step that is not masked {@code [batch]}.</li>
 * </ul>
 * Row block 0 of the hidden (and cell) states is the initial state: zero, or the op's initial-state input.
 *
 * @param cell the cell
 * @param batch samples
 * @param steps time steps
 * @param inputs input features per step
 * @param units state size
 * @param goBackwards whether the input is read from its last step
 * @param returnSequences whether every step's output is output, or only the last
 * @param returnState whether the final states follow the output in each row
 * @param masked whether a mask {@code [batch, steps]} says which steps are real
 * @param initialState whether the initial state is an input (else zero)
 * @param zeroOutputForMask whether masked steps output zeros (else the previous output)
 * @param outputInTimeOrder whether the output sequence is in the input's time order (else in processing order)
 */
public record RecurrentGeometry(RecurrentCell cell, int batch, int steps, int inputs, int units,
                                boolean goBackwards, boolean returnSequences, boolean returnState, boolean masked,
                                boolean initialState, boolean zeroOutputForMask, boolean outputInTimeOrder) {

    /**
     * The geometry of an op without state output, mask or initial state.
     *
     * @param cell the cell
     * @param batch samples
     * @param steps time steps
     * @param inputs input features per step
     * @param units state size
     * @param goBackwards whether the input is read from its last step
     * @param returnSequences whether every step's output is output
     */
    public RecurrentGeometry(RecurrentCell cell, int batch, int steps, int inputs, int units, boolean goBackwards,
                             boolean returnSequences) {
        this(cell, batch, steps, inputs, units, goBackwards, returnSequences, false, false, false, false, false);
    }

    /**
     * The geometry of a recurrent op over an input of shape {@code [batch, steps, inputs]}.
     *
     * @param x the input shape
     * @param a the op's attributes
     * @return the geometry
     */
    public static RecurrentGeometry of(Shape x, RecurrentAttrs a) {
        return new RecurrentGeometry(a.cell(), x.dim(0), x.dim(1), x.dim(2), a.units(), a.goBackwards(),
                a.returnSequences(), a.returnState(), a.masked(), a.initialState(), a.zeroOutputForMask(),
                a.outputInTimeOrder());
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
     * Floats of each output row before the states: {@code steps units} with sequences, else {@code units}.
     *
     * @return the output width
     */
    public int outputWidth() {
        return returnSequences ? steps * units : units;
    }

    /**
     * Floats of each output row: the output, then the final states when they are returned.
     *
     * @return the row width of the output
     */
    public int outputRowWidth() {
        return outputWidth() + (returnState ? states() * units : 0);
    }

    /**
     * The input step processed at step {@code s}.
     *
     * @param s the processing step
     * @return the input's time index
     */
    public int time(int s) {
        return goBackwards ? steps - 1 - s : s;
    }

    /**
     * The position in the output sequence of processing step {@code s}: the step itself, or its time index when
     * the output is in time order.
     *
     * @param s the processing step
     * @return the output position
     */
    public int outputPosition(int s) {
        return outputInTimeOrder ? time(s) : s;
    }

    /**
     * Columns of the kernels: {@code gates * units}.
     *
     * @return the gate width
     */
    public int gateWidth() {
        return cell.gates() * units;
    }

    /**
     * Rows over all steps: {@code steps * batch}.
     *
     * @return the row count
     */
    public int rows() {
        return steps * batch;
    }

    /**
     * Floats of the bias: {@code [gates units]}, or {@code [2, gates units]} for GRU.
     *
     * @return the bias size
     */
    public int biasSize() {
        return cell == RecurrentCell.GRU ? 2 * gateWidth() : gateWidth();
    }

    /**
     * Offset of the inputs in processing order within the state.
     *
     * @return the offset
     */
    public int inputsOffset() {
        return 0;
    }

    /**
     * Offset of the activated gates within the state.
     *
     * @return the offset
     */
    public int gatesOffset() {
        return rows() * inputs;
    }

    /**
     * Offset of the hidden states {@code [steps + 1, batch, units]} within the state.
     *
     * @return the offset
     */
    public int hiddenOffset() {
        return gatesOffset() + rows() * gateWidth();
    }

    /**
     * Offset of LSTM's cell states or GRU's recurrent candidate parts within the state.
     *
     * @return the offset
     */
    public int extraOffset() {
        return hiddenOffset() + (steps + 1) * batch * units;
    }

    /**
     * Offset of GRU's one-step recurrent product {@code [batch, gates units]} within the state.
     *
     * @return the offset
     */
    public int recurrentProductOffset() {
        return extraOffset() + rows() * units;
    }

    /**
     * Floats of the state the forward kernel keeps.
     *
     * @return the state size
     */
    public int stateSize() {
        return switch (cell) {
            case SIMPLE -> extraOffset();
            case LSTM -> extraOffset() + (steps + 1) * batch * units;
            case GRU -> recurrentProductOffset() + batch * gateWidth();
        };
    }

    /**
     * Offset of the gates' pre-activation gradients within the scratch.
     *
     * @return the offset
     */
    public int gateGradientOffset() {
        return 0;
    }

    /**
     * Offset of the recurrent product's gradients (GRU's differ from the gates'; the others share them).
     *
     * @return the offset
     */
    public int recurrentGradientOffset() {
        return cell == RecurrentCell.GRU ? rows() * gateWidth() : 0;
    }

    /**
     * Offset of the running hidden-state gradient {@code [batch, units]} within the scratch.
     *
     * @return the offset
     */
    public int hiddenGradientOffset() {
        return (cell == RecurrentCell.GRU ? 2 : 1) * rows() * gateWidth();
    }

    /**
     * Offset of LSTM's running cell-state gradient {@code [batch, units]} within the scratch.
     *
     * @return the offset
     */
    public int cellGradientOffset() {
        return hiddenGradientOffset() + batch * units;
    }

    /**
     * Offset of the row of ones that sums the gradients over all rows into the bias gradient.
     *
     * @return the offset
     */
    public int onesOffset() {
        return cellGradientOffset() + batch * units;
    }

    /**
     * Offset of the input gradient in processing order {@code [steps, batch, inputs]} within the scratch.
     *
     * @return the offset
     */
    public int inputGradientOffset() {
        return onesOffset() + rows();
    }

    /**
     * Floats of the backward kernel's scratch.
     *
     * @return the scratch size
     */
    public int scratchSize() {
        return masked ? firstRealOffset() + batch : maskSaveOffset();
    }

    /**
     * Offset of the masked rows' saved hidden-state gradients {@code [batch, units]} within the scratch (followed by
     * the saved cell-state gradients, as many).
     *
     * @return the offset
     */
    public int maskSaveOffset() {
        return inputGradientOffset() + rows() * inputs;
    }

    /**
     * Offset of each row's first processing step that the mask keeps ({@code steps} when none) within the scratch.
     *
     * @return the offset
     */
    public int firstRealOffset() {
        return maskSaveOffset() + 2 * batch * units;
    }

    /**
     * Floats of the backward op's packed result: the input gradient {@code [batch, steps, inputs]} (when asked for),
     * then those of the kernel, the recurrent kernel and the bias, then the initial state's
     * {@code [batch, states units]} when it is an input.
     *
     * @param inputGradient whether the input gradient is included
     * @return the result size
     */
    public int gradientSize(boolean inputGradient) {
        return (inputGradient ? batch * steps * inputs : 0) + inputs * gateWidth() + units * gateWidth()
                + biasSize() + (initialState ? batch * states() * units : 0);
    }
}

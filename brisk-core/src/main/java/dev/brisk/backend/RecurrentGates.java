package dev.brisk.backend;

/**
 * The per-step passes over the gates of {@link RecurrentLoops}, one method per cell and direction, each over the
 * {@code b} rows of one step ({@code n} units; the gate rows are {@code gates * n} wide). Offsets are into the kept
 * state {@code st} and the backward scratch {@code sc} as {@link dev.brisk.ops.RecurrentGeometry} lays them out.
 * A backend supplies its own (vectorized, split over rows) or uses the scalar reference.
 */
public interface RecurrentGates {
    /**
     * SimpleRNN: {@code h = tanh(pre)} in place in the gate rows, copied to the next hidden state.
     *
     * @param st the state
     * @param gs the step's gate rows (pre-activations in, activations out)
     * @param hNext the next hidden state
     * @param b rows
     * @param n units
     */
    void simpleForward(float[] st, int gs, int hNext, int b, int n);

    /**
     * LSTM: activates the gates {@code i, f, c, o} in place; {@code c' = f c + i g}, {@code h = o tanh(c')}.
     *
     * @param st the state
     * @param gs the step's gate rows
     * @param cPrev the previous cell state (the next follows it)
     * @param hNext the next hidden state
     * @param b rows
     * @param n units
     */
    void lstmForward(float[] st, int gs, int cPrev, int hNext, int b, int n);

    /**
     * GRU (reset after): {@code z, r} from the input part, the recurrent product and the recurrent bias; the
     * candidate from the input part plus {@code r} times the recurrent part, which is kept.
     *
     * @param st the state
     * @param gs the step's gate rows (input parts in, activations out)
     * @param product the step's recurrent product {@code h U}
     * @param bias the bias array
     * @param recBias index of the recurrent bias
     * @param candidate receives the recurrent candidate part {@code h U_h + b'_h}
     * @param hPrev the previous hidden state (the next follows it)
     * @param b rows
     * @param n units
     */
    void gruForward(float[] st, int gs, int product, float[] bias, int recBias, int candidate, int hPrev, int b,
                    int n);

    /**
     * SimpleRNN backward: the pre-activation gradients {@code dh (1 - h^2)}.
     *
     * @param st the state
     * @param gs the step's activations
     * @param sc the scratch
     * @param dh the hidden-state gradient
     * @param dgs receives the pre-activation gradients
     * @param b rows
     * @param n units
     */
    void simpleBackward(float[] st, int gs, float[] sc, int dh, int dgs, int b, int n);

    /**
     * LSTM backward: the gates' pre-activation gradients from {@code dh} and the running {@code dc}, which becomes
     * the previous step's.
     *
     * @param st the state
     * @param gs the step's gate activations
     * @param cPrev the previous cell state (the step's follows it)
     * @param sc the scratch
     * @param dh the hidden-state gradient
     * @param dc the running cell-state gradient, updated
     * @param dgs receives the pre-activation gradients
     * @param b rows
     * @param n units
     */
    void lstmBackward(float[] st, int gs, int cPrev, float[] sc, int dh, int dc, int dgs, int b, int n);

    /**
     * GRU backward: the input parts' pre-activation gradients into {@code dgs}, the recurrent product's into
     * {@code drs} (the candidate's scaled by {@code r}), and {@code dh} replaced by its direct part {@code z dh}.
     *
     * @param st the state
     * @param gs the step's gate activations
     * @param candidate the step's recurrent candidate part
     * @param hPrev the previous hidden state
     * @param sc the scratch
     * @param dh the hidden-state gradient, replaced
     * @param dgs receives the input parts' gradients
     * @param drs receives the recurrent product's gradients
     * @param b rows
     * @param n units
     */
    void gruBackward(float[] st, int gs, int candidate, int hPrev, float[] sc, int dh, int dgs, int drs, int b,
                     int n);
}

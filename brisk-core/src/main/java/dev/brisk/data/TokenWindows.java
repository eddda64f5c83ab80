package dev.brisk.data;

import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;

/**
 * A long stream of token ids cut into windows for next-token prediction (a language model's training pairs): window
 * {@code i} starts at token {@code i * stride}; its input is the {@code length} tokens from there, an INT32 tensor
 * {@code (length,)}, and its target is the same span shifted by one token, the next token at every position, as
 * class indices {@code (length,)} for a sparse cross-entropy over the vocabulary. A stride equal to the length gives
 * windows that do not overlap (every token is an input once); a smaller stride gives more, overlapping windows, so
 * that a token is predicted from several amounts of context.
 *
 * <p>Targets are FLOAT32, as every class-index target of Brisk's losses and metrics is; token ids are exact as
 * floats below 2^24, and larger ids are refused. The token array is shared, not copied: do not change it while the
 * windows are in use.
 */
public final class TokenWindows {
    /** Ids from here on are not exact as float targets. */
    private static final int EXACT_FLOAT_INTS = 1 << 24;

    private final int[] tokens;
    private final int length;
    private final int stride;
    private final int count;

    private TokenWindows(int[] tokens, int length, int stride) {
        this.tokens = tokens;
        this.length = length;
        this.stride = stride;
        // The last window's target ends at the last token: start + length + 1 <= tokens.length.
        this.count = tokens.length < length + 1 ? 0 : (tokens.length - length - 1) / stride + 1;
    }

    /**
     * Windows of {@code length} tokens starting every {@code stride} tokens.
     *
     * @param tokens the token ids, none negative, all below 2^24
     * @param length tokens per window, at least 1
     * @param stride tokens between the starts of consecutive windows, at least 1
     * @return the windows
     * @throws IllegalArgumentException for a length or stride under 1, or an id that is negative or not exact as a
     *     float target, naming it and its position
     */
    public static TokenWindows of(int[] tokens, int length, int stride) {
        if (length < 1 || stride < 1) {
            throw new IllegalArgumentException("token windows need a length and a stride of at least 1, got length "
                    + length + " and stride " + stride);
        }
        for (int i = 0; i < tokens.length; i++) {
            if (tokens[i] < 0 || tokens[i] >= EXACT_FLOAT_INTS) {
                throw new IllegalArgumentException("token id " + tokens[i] + " at position " + i + " is outside [0, "
                        + EXACT_FLOAT_INTS + "), the ids that are exact as float class-index targets");
            }
        }
        return new TokenWindows(tokens, length, stride);
    }

    /**
     * The number of windows: every start {@code i * stride} whose target (one token further) still fits.
     *
     * @return the window count, 0 when the stream is shorter than {@code length + 1} tokens
     */
    public int size() {
        return count;
    }

    /**
     * Tokens per window.
     *
     * @return the window length
     */
    public int length() {
        return length;
    }

    /**
     * Tokens between consecutive windows' starts.
     *
     * @return the stride
     */
    public int stride() {
        return stride;
    }

    /**
     * Window {@code i}: its input ids and its next-token targets, each a new tensor.
     *
     * @param i a window index in {@code [0, size())}
     * @return the sample: features INT32 {@code (length,)}, label FLOAT32 {@code (length,)}
     */
    public Sample window(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("window " + i + " of " + count);
        }
        Tensor x = Tensor.zeros(Shape.of(length), DType.INT32);
        Tensor y = Tensor.zeros(Shape.of(length), DType.FLOAT32);
        fill(i, x.data(), x.offset(), y.data(), y.offset());
        return new Sample(x, y);
    }

    private void fill(int i, float[] x, int xOff, float[] y, int yOff) {
        int start = i * stride;
        for (int t = 0; t < length; t++) {
            x[xOff + t] = Float.intBitsToFloat(tokens[start + t]);
            y[yOff + t] = tokens[start + t + 1];
        }
    }

    /**
     * The windows as a pipeline source, each made as it is read (nothing is copied up front, so a small stride over
     * a long stream costs no memory); shuffle and batch it as any other source.
     *
     * @return one {@link Sample} per window, in order
     */
    public Pipeline<Sample> pipeline() {
        return new IndexedSource<>(count, this::window);
    }

    /**
     * All windows copied into one in-memory dataset, features INT32 {@code [size, length]} and targets FLOAT32
     * {@code [size, length]}: what {@code Model.fit} shuffles and batches fastest, at {@code 8 * length} bytes a
     * window.
     *
     * @return the dataset
     * @throws IllegalArgumentException if the windows hold more than {@code Integer.MAX_VALUE} tokens
     */
    public InMemoryDataset toDataset() {
        int total = Math.multiplyExact(count, length);
        Tensor x = Tensor.zeros(Shape.of(count, length), DType.INT32);
        Tensor y = Tensor.zeros(Shape.of(count, length), DType.FLOAT32);
        for (int i = 0; i < count; i++) {
            fill(i, x.data(), i * length, y.data(), i * length);
        }
        assert total == x.size();
        return new InMemoryDataset(x, y);
    }

    @Override
    public String toString() {
        return "TokenWindows[" + count + " windows of " + length + " tokens, stride " + stride + ", over "
                + tokens.length + " tokens]";
    }
}

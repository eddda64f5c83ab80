package dev.brisk.data.preprocessing;

import dev.brisk.tensor.DType;
import dev.brisk.tensor.Tensor;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Keras' {@code Hashing(num_bins, mask_value, salt, output_mode)}: strings or integers to one of {@code numBins}
 * bins by a stable hash, the bins Keras gives for the same values. The rule, as Keras and TensorFlow have it:
 * <ul>
 *   <li>a value is hashed as bytes: a string as its UTF-8 encoding, an integer as its decimal string
 *       ({@code tf.as_string}), a float first truncated to an integer ({@code tf.cast} to int64);</li>
 *   <li>without a salt the hash is FarmHash's {@code Fingerprint64} ({@code to_hash_bucket_fast}); with a salt it is
 *       SipHash-2-4 keyed by the salt's two words ({@code to_hash_bucket_strong}; one salt {@code s} is
 *       {@code (s, s)}); the bin is the hash, unsigned, modulo the number of hash bins;</li>
 *   <li>with a mask value (and more than one bin) bin 0 is the mask value's alone: the other values hash into
 *       {@code numBins - 1} bins and are shifted up by one;</li>
 *   <li>{@code ONE_HOT}, {@code MULTI_HOT} and {@code COUNT} encode the bins as {@link CategoryEncoding} does, with
 *       {@code numBins} entries.</li>
 * </ul>
 * Integer tensors ({@link #apply}) come as INT32 or float32; strings come as a list ({@link #strings}), since a
 * tensor holds numbers. Immutable and safe to share between pipeline workers.
 */
public final class Hashing implements UnaryOperator<Tensor> {
    /** Keras' {@code output_mode}. */
    public enum OutputMode {
        /** The bin indexes, an INT32 tensor of the input's shape. */
        INT,
        /** One vector of {@code numBins} per value (a last axis of 1 is replaced). */
        ONE_HOT,
        /** One vector per last axis: 1 where a bin occurs. */
        MULTI_HOT,
        /** One vector per last axis: how often each bin occurs. */
        COUNT
    }

    private final int numBins;
    private final Object maskValue;
    private final long[] salt;
    private final OutputMode outputMode;

    /**
     * {@code numBins} bins, Keras' defaults: no mask value, no salt (FarmHash), {@link OutputMode#INT}.
     *
     * @param numBins the number of bins, at least 1
     */
    public Hashing(int numBins) {
        this(numBins, null, null, OutputMode.INT);
    }

    private Hashing(int numBins, Object maskValue, long[] salt, OutputMode outputMode) {
        if (numBins < 1) {
            throw new IllegalArgumentException("Hashing needs num_bins of at least 1, got " + numBins);
        }
        this.numBins = numBins;
        this.maskValue = maskValue;
        this.salt = salt;
        this.outputMode = Objects.requireNonNull(outputMode, "outputMode");
    }

    /**
     * This hashing with a string mask value (Keras' {@code mask_value}, often {@code ""}), which goes to bin 0.
     *
     * @param mask the mask value of string inputs
     * @return the new hashing
     */
    public Hashing maskValue(String mask) {
        return new Hashing(numBins, Objects.requireNonNull(mask, "mask"), salt, outputMode);
    }

    /**
     * This hashing with an integer mask value, which goes to bin 0.
     *
     * @param mask the mask value of integer inputs
     * @return the new hashing
     */
    public Hashing maskValue(long mask) {
        return new Hashing(numBins, mask, salt, outputMode);
    }

    /**
     * This hashing salted with one integer, Keras' {@code salt=s}, the same as {@code salt(s, s)}.
     *
     * @param salt the salt
     * @return the new hashing, with SipHash-2-4
     */
    public Hashing salt(long salt) {
        return salt(salt, salt);
    }

    /**
     * This hashing salted with two integers, Keras' {@code salt=[s0, s1]}: SipHash-2-4's key words.
     *
     * @param s0 the key's first word (an unsigned 64-bit value in a {@code long})
     * @param s1 the key's second word
     * @return the new hashing, with SipHash-2-4
     */
    public Hashing salt(long s0, long s1) {
        return new Hashing(numBins, maskValue, new long[] {s0, s1}, outputMode);
    }

    /**
     * This hashing with another output mode.
     *
     * @param mode Keras' output mode
     * @return the new hashing
     */
    public Hashing outputMode(OutputMode mode) {
        return new Hashing(numBins, maskValue, salt, mode);
    }

    /**
     * The number of bins, the mask's bin included: an {@code Embedding}'s input dimension over the bins.
     *
     * @return {@code numBins}
     */
    public int bins() {
        return numBins;
    }

    /**
     * The bin of a string.
     *
     * @param value the string
     * @return its bin in {@code [0, numBins)}
     * @throws IllegalArgumentException when the mask value is an integer (Keras cannot compare them either)
     */
    public int bin(String value) {
        if (maskValue != null && numBins > 1) {
            if (!(maskValue instanceof String)) {
                throw new IllegalArgumentException("Hashing: the mask value " + maskValue + " is an integer but the "
                        + "input is strings");
            }
            if (maskValue.equals(value)) {
                return 0;
            }
        }
        return hashed(value);
    }

    /**
     * The bin of an integer, hashed as its decimal string.
     *
     * @param value the integer
     * @return its bin in {@code [0, numBins)}
     * @throws IllegalArgumentException when the mask value is a string
     */
    public int bin(long value) {
        if (masked(value)) {
            return 0;
        }
        return hashed(Long.toString(value));
    }

    /**
     * The bins of an INT32 or float32 tensor, encoded by the output mode. Floats are truncated toward zero first,
     * as Keras casts them to int64; the mask value is compared with the value before that, as Keras does.
     *
     * @param values the integers
     * @return the bins
     * @throws IllegalArgumentException naming a value that is NaN, infinite or beyond 64-bit integers
     */
    @Override
    public Tensor apply(Tensor values) {
        int[] out = new int[values.size()];
        boolean ints = values.dtype() == DType.INT32;
        for (int i = 0; i < out.length; i++) {
            if (ints) {
                out[i] = bin(values.intAt(i));
                continue;
            }
            float v = values.get(i);
            if (!Float.isFinite(v) || Math.abs(v) >= 0x1p63f) {
                throw new IllegalArgumentException("Hashing: value " + v + " at index " + i
                        + " is not a 64-bit integer (Keras casts floats to int64 before hashing)");
            }
            // Keras compares the float with the mask value, then truncates and hashes what is not masked.
            boolean mask = maskValue != null && numBins > 1 && v == maskNumber().floatValue();
            out[i] = mask ? 0 : hashed(Long.toString((long) v));
        }
        return encode(Tensor.ofInts(out, values.shape().dims()));
    }

    /**
     * The bins of strings, as Keras hashes a list of them: shape {@code (n)} in {@link OutputMode#INT},
     * {@code (n, numBins)} one-hot ({@code (numBins)} for one string), {@code (numBins)} multi-hot or count.
     *
     * @param values the strings
     * @return the bins
     */
    public Tensor strings(List<String> values) {
        int[] out = new int[values.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = bin(values.get(i));
        }
        return encode(Tensor.ofInts(out, out.length));
    }

    private boolean masked(long value) {
        return maskValue != null && numBins > 1 && maskNumber() == value;
    }

    private Long maskNumber() {
        if (!(maskValue instanceof Long m)) {
            throw new IllegalArgumentException("Hashing: the mask value '" + maskValue + "' is a string but the "
                    + "input is integers");
        }
        return m;
    }

    /** The bin of a value that is not the mask: its hash among the bins left after the mask's. */
    private int hashed(String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        boolean mask = maskValue != null && numBins > 1;
        long hash = salt == null ? FarmHash.fingerprint64(bytes) : SipHash.hash24(salt[0], salt[1], bytes);
        long bin = Long.remainderUnsigned(hash, mask ? numBins - 1 : numBins);
        return (int) bin + (mask ? 1 : 0);
    }

    private Tensor encode(Tensor bins) {
        return switch (outputMode) {
            case INT -> bins;
            case ONE_HOT -> new CategoryEncoding(numBins, CategoryEncoding.Mode.ONE_HOT).apply(bins);
            case MULTI_HOT -> new CategoryEncoding(numBins, CategoryEncoding.Mode.MULTI_HOT).apply(bins);
            case COUNT -> new CategoryEncoding(numBins, CategoryEncoding.Mode.COUNT).apply(bins);
        };
    }

    @Override
    public String toString() {
        return "Hashing[" + numBins + " bins" + (maskValue == null ? "" : ", mask " + maskValue)
                + (salt == null ? ", FarmHash" : ", SipHash salted") + ", " + outputMode + "]";
    }
}

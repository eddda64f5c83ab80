package dev.brisk.losses;

/**
 * How a loss turns its per-sample (or per-step) values into what it returns: Keras 3's {@code reduction} argument
 * of every loss ({@code keras/src/losses/loss.py}, {@code reduce_weighted_values}). Sample weights and a padding
 * mask multiply the values first; the reduction then sums or averages them, or leaves them as they are.
 */
public enum Reduction {
    /**
     * Keras' default: the sum of the weighted values over the number of values (samples times steps), or over the
     * number of unmasked steps when the predictions carry a mask.
     */
    SUM_OVER_BATCH_SIZE("sum_over_batch_size"),
    /** The same as {@link #SUM_OVER_BATCH_SIZE}, which Keras 3 computes identically. */
    MEAN("mean"),
    /** The sum of the weighted values. */
    SUM("sum"),
    /**
     * The sum of the weighted values over the sum of the weights (each sample's weight counted once per value of
     * that sample, times the mask): the weighted mean. Without weights or a mask, as {@link #SUM_OVER_BATCH_SIZE}.
     * A batch whose weights sum to zero gives 0, as Keras' {@code divide_no_nan}.
     */
    MEAN_WITH_SAMPLE_WEIGHT("mean_with_sample_weight"),
    /**
     * No reduction (Keras' {@code None} or {@code "none"}): the weighted per-sample values, shaped as
     * {@link Loss#perStep} gives them. Training needs one number per step, so {@code fit} and {@code evaluate}
     * refuse such a loss (Keras' JAX and PyTorch backends refuse it too).
     */
    NONE("none");

    private final String kerasName;

    Reduction(String kerasName) {
        this.kerasName = kerasName;
    }

    /**
     * The name Keras gives this reduction in a loss's config.
     *
     * @return e.g. {@code "sum_over_batch_size"}
     */
    public String kerasName() {
        return kerasName;
    }

    /**
     * The reduction Keras names {@code name}: one of {@code sum_over_batch_size}, {@code mean}, {@code sum},
     * {@code mean_with_sample_weight}, {@code none} (or null, Keras' {@code None}), and Keras 2's {@code auto}, which
     * meant the default.
     *
     * @param name the reduction's Keras name, or null for none
     * @param loss the loss it is for, named in the error
     * @return the reduction
     * @throws IllegalArgumentException naming the loss and the value when no reduction has that name
     */
    public static Reduction of(String name, String loss) {
        if (name == null) {
            return NONE;
        }
        if (name.equals("auto")) {
            return SUM_OVER_BATCH_SIZE;
        }
        for (Reduction r : values()) {
            if (r.kerasName.equals(name)) {
                return r;
            }
        }
        throw new IllegalArgumentException("loss " + loss + ": unknown reduction '" + name + "' (Keras has"
                + " sum_over_batch_size, mean, sum, mean_with_sample_weight and none)");
    }
}

package dev.brisk.data;

import dev.brisk.tensor.Tensor;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * One example of a {@link Pipeline}: its features and its label, without a batch axis. {@link Pipeline#batch}
 * stacks samples into a {@link Batch}.
 *
 * @param features the sample's features, for example {@code (28, 28, 1)}
 * @param label the sample's label ({@code ()} for a class index), or null for features only
 */
public record Sample(Tensor features, Tensor label) {

    /** Checks that there are features. */
    public Sample {
        Objects.requireNonNull(features, "a sample needs features");
    }

    /**
     * A sample with features only (data to predict on).
     *
     * @param features the features
     */
    public Sample(Tensor features) {
        this(features, null);
    }

    /**
     * This sample with other features.
     *
     * @param newFeatures the features
     * @return a new sample
     */
    public Sample withFeatures(Tensor newFeatures) {
        return new Sample(newFeatures, label);
    }

    /**
     * This sample with another label.
     *
     * @param newLabel the label
     * @return a new sample
     */
    public Sample withLabel(Tensor newLabel) {
        return new Sample(features, newLabel);
    }

    /**
     * Lifts a function of tensors to samples: applies {@code fn} to the features and keeps the label.
     *
     * @param fn the function of the features
     * @return the function of samples
     */
    public static Function<Sample, Sample> features(Function<? super Tensor, ? extends Tensor> fn) {
        return s -> s.withFeatures(fn.apply(s.features()));
    }

    /**
     * Lifts a random transformation of tensors to samples: applies it to the features, keeps the label.
     *
     * @param fn the transformation of the features
     * @return the transformation of samples
     */
    public static RandomTransform<Sample, Sample> features(RandomTransform<? super Tensor, ? extends Tensor> fn) {
        return new RandomTransform<>() {
            @Override
            public Sample apply(Sample s, SplittableRandom random) {
                return s.withFeatures(fn.apply(s.features(), random));
            }

            @Override
            public long seed() {
                return fn.seed();
            }
        };
    }

    /**
     * Lifts a function of tensors to samples: applies {@code fn} to the label and keeps the features.
     *
     * @param fn the function of the label
     * @return the function of samples
     */
    public static Function<Sample, Sample> labels(Function<? super Tensor, ? extends Tensor> fn) {
        return s -> {
            if (s.label() == null) {
                throw new IllegalArgumentException("cannot transform the label of a sample that has none");
            }
            return s.withLabel(fn.apply(s.label()));
        };
    }
}

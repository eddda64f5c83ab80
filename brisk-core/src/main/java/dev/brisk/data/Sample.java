package dev.brisk.data;

import dev.brisk.tensor.Tensor;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * One example of a {@link Pipeline}, without a batch axis: its inputs, its targets and, optionally, its weight.
 * {@link Pipeline#batch} stacks samples into a {@link Batch}. Most samples have one input and one target
 * ({@code new Sample(features, label)}); a model with several inputs or outputs takes one tensor per input and per
 * output, by position ({@link #of(Tensor[], Tensor[])}) or by the names of the model's input and output layers
 * ({@link #of(Map, Map)}), as Keras takes a tuple or a dict from a {@code tf.data} dataset.
 *
 * @param inputs the sample's inputs (at least one), for example one {@code (28, 28, 1)} image
 * @param targets the sample's targets (empty for features only: data to predict on); {@code ()} for a class index
 * @param weight the sample's weight in the loss (Keras' {@code sample_weight}, a scalar), or null for 1
 * @param inputNames the model input each input is for, or null when they are given by position
 * @param targetNames the model output each target is for, or null when they are given by position
 */
public record Sample(Tensor[] inputs, Tensor[] targets, Tensor weight, List<String> inputNames,
                     List<String> targetNames) {

    /** Checks that there are inputs, that no part is missing and that the names fit the parts. */
    public Sample {
        Objects.requireNonNull(inputs, "a sample needs features");
        targets = targets == null ? new Tensor[0] : targets;
        Parts.check("sample", inputs, targets, inputNames, targetNames);
        if (weight != null && weight.size() != 1) {
            throw new IllegalArgumentException("a sample's weight is one number, but it has shape " + weight.shape());
        }
    }

    /**
     * A sample with one input and one target.
     *
     * @param features the features
     * @param label the label, or null for features only
     */
    public Sample(Tensor features, Tensor label) {
        this(new Tensor[] {Objects.requireNonNull(features, "a sample needs features")},
                label == null ? new Tensor[0] : new Tensor[] {label}, null, null, null);
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
     * A sample with one tensor per model input and per model output, in the model's order.
     *
     * @param inputs one tensor per model input
     * @param targets one tensor per model output, or an empty array (or null) for features only
     * @return the sample
     */
    public static Sample of(Tensor[] inputs, Tensor[] targets) {
        return new Sample(inputs.clone(), targets == null ? null : targets.clone(), null, null, null);
    }

    /**
     * A sample whose parts are named after the model's input and output layers (Keras' dict of inputs and
     * targets); {@code fit} puts each where its name says, whatever the map's order.
     *
     * @param inputs tensors by model input name
     * @param targets tensors by model output name, or an empty map (or null) for features only
     * @return the sample
     */
    public static Sample of(Map<String, Tensor> inputs, Map<String, Tensor> targets) {
        Map<String, Tensor> t = targets == null ? Map.of() : targets;
        return new Sample(inputs.values().toArray(new Tensor[0]), t.values().toArray(new Tensor[0]), null,
                List.copyOf(inputs.keySet()), t.isEmpty() ? null : List.copyOf(t.keySet()));
    }

    /**
     * The features of a single-input sample.
     *
     * @return the one input
     * @throws IllegalStateException if the sample has several inputs (use {@link #inputs()})
     */
    public Tensor features() {
        return Parts.single(inputs, "input", "features()");
    }

    /**
     * The label of a single-output sample, or null when it has none.
     *
     * @return the one target, or null
     * @throws IllegalStateException if the sample has several targets (use {@link #targets()})
     */
    public Tensor label() {
        return targets.length == 0 ? null : Parts.single(targets, "target", "label()");
    }

    /**
     * This sample with other features (a single-input sample).
     *
     * @param newFeatures the features
     * @return a new sample
     */
    public Sample withFeatures(Tensor newFeatures) {
        features();
        return new Sample(new Tensor[] {newFeatures}, targets, weight, inputNames, targetNames);
    }

    /**
     * This sample with another label (a single-output sample).
     *
     * @param newLabel the label
     * @return a new sample
     */
    public Sample withLabel(Tensor newLabel) {
        label();
        return new Sample(inputs, new Tensor[] {newLabel}, weight, inputNames, targetNames);
    }

    /**
     * This sample with a weight in the loss (Keras' {@code sample_weight}): its loss counts {@code weight} times;
     * 0 removes its effect on training. Stacked by {@link Pipeline#batch} into {@link Batch#weights()}.
     *
     * @param weight the weight
     * @return a new sample
     */
    public Sample withWeight(float weight) {
        return new Sample(inputs, targets, Tensor.scalar(weight), inputNames, targetNames);
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
     * Lifts a function of tensors to samples: applies {@code fn} to the input at position {@code index} of a
     * multi-input sample, keeping everything else.
     *
     * @param index the position of the input to transform
     * @param fn the function of that input
     * @return the function of samples
     */
    public static Function<Sample, Sample> input(int index, Function<? super Tensor, ? extends Tensor> fn) {
        return s -> {
            if (index < 0 || index >= s.inputs().length) {
                throw new IllegalArgumentException("sample has " + s.inputs().length + " input(s), no input " + index);
            }
            Tensor[] in = s.inputs().clone();
            in[index] = fn.apply(in[index]);
            return new Sample(in, s.targets(), s.weight(), s.inputNames(), s.targetNames());
        };
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

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
 * <p>A class rather than a record so that the common sample of one input and one label holds no arrays: a
 * pipeline makes one sample per element, and {@link #input(int)} and {@link #target(int)} read the parts without
 * making any.
 */
public final class Sample {
    private final Tensor features;
    /** All inputs when there are several, else null. */
    private final Tensor[] inputs;
    private final Tensor label;
    /** All targets when there are several, else null. */
    private final Tensor[] targets;
    private final Tensor weight;
    private final List<String> inputNames;
    private final List<String> targetNames;

    /**
     * A sample of any number of inputs and targets.
     *
     * @param inputs the sample's inputs (at least one), for example one {@code (28, 28, 1)} image
     * @param targets the sample's targets (empty or null for features only); {@code ()} for a class index
     * @param weight the sample's weight in the loss (Keras' {@code sample_weight}, one number), or null for 1
     * @param inputNames the model input each input is for, or null when they are given by position
     * @param targetNames the model output each target is for, or null when they are given by position
     */
    public Sample(Tensor[] inputs, Tensor[] targets, Tensor weight, List<String> inputNames,
                  List<String> targetNames) {
        Objects.requireNonNull(inputs, "a sample needs features");
        Tensor[] t = targets == null ? new Tensor[0] : targets;
        Parts.check("sample", inputs, t, inputNames, targetNames);
        if (weight != null && weight.size() != 1) {
            throw new IllegalArgumentException("a sample's weight is one number, but it has shape " + weight.shape());
        }
        this.features = inputs[0];
        this.inputs = inputs.length > 1 ? inputs : null;
        this.label = t.length == 0 ? null : t[0];
        this.targets = t.length > 1 ? t : null;
        this.weight = weight;
        this.inputNames = inputNames;
        this.targetNames = targetNames;
    }

    /**
     * A sample with one input and one target.
     *
     * @param features the features
     * @param label the label, or null for features only
     */
    public Sample(Tensor features, Tensor label) {
        this.features = Objects.requireNonNull(features, "a sample needs features");
        this.inputs = null;
        this.label = label;
        this.targets = null;
        this.weight = null;
        this.inputNames = null;
        this.targetNames = null;
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
        if (inputs != null) {
            Parts.single(inputs, "input", "features()");
        }
        return features;
    }

    /**
     * The label of a single-output sample, or null when it has none.
     *
     * @return the one target, or null
     * @throws IllegalStateException if the sample has several targets (use {@link #targets()})
     */
    public Tensor label() {
        if (targets != null) {
            Parts.single(targets, "target", "label()");
        }
        return label;
    }

    /**
     * The number of inputs.
     *
     * @return at least 1
     */
    public int inputCount() {
        return inputs == null ? 1 : inputs.length;
    }

    /**
     * Input {@code i}.
     *
     * @param i from 0 to {@link #inputCount()} - 1
     * @return the input
     */
    public Tensor input(int i) {
        return inputs != null ? inputs[i] : Objects.checkIndex(i, 1) == 0 ? features : null;
    }

    /**
     * The inputs.
     *
     * @return a new array of the inputs, in order
     */
    public Tensor[] inputs() {
        return inputs != null ? inputs.clone() : new Tensor[] {features};
    }

    /**
     * The number of targets: 0 for features only.
     *
     * @return the target count
     */
    public int targetCount() {
        return targets != null ? targets.length : label == null ? 0 : 1;
    }

    /**
     * Target {@code i}.
     *
     * @param i from 0 to {@link #targetCount()} - 1
     * @return the target
     */
    public Tensor target(int i) {
        return targets != null ? targets[i] : Objects.checkIndex(i, targetCount()) == 0 ? label : null;
    }

    /**
     * The targets.
     *
     * @return a new array of the targets, in order (empty for features only)
     */
    public Tensor[] targets() {
        return targets != null ? targets.clone() : label == null ? new Tensor[0] : new Tensor[] {label};
    }

    /**
     * The sample's weight in the loss, or null for 1.
     *
     * @return the weight, a one-element tensor, or null
     */
    public Tensor weight() {
        return weight;
    }

    /**
     * The model input each input is for.
     *
     * @return the names, or null for inputs by position
     */
    public List<String> inputNames() {
        return inputNames;
    }

    /**
     * The model output each target is for.
     *
     * @return the names, or null for targets by position
     */
    public List<String> targetNames() {
        return targetNames;
    }

    /**
     * This sample with other features (a single-input sample).
     *
     * @param newFeatures the features
     * @return a new sample
     */
    public Sample withFeatures(Tensor newFeatures) {
        features();
        if (weight == null && inputNames == null && targetNames == null && targets == null) {
            return new Sample(newFeatures, label);
        }
        return new Sample(new Tensor[] {newFeatures}, targets(), weight, inputNames, targetNames);
    }

    /**
     * This sample with another label (a single-output sample).
     *
     * @param newLabel the label
     * @return a new sample
     */
    public Sample withLabel(Tensor newLabel) {
        label();
        if (weight == null && inputNames == null && targetNames == null && inputs == null) {
            return new Sample(features, newLabel);
        }
        return new Sample(inputs(), new Tensor[] {newLabel}, weight, inputNames, targetNames);
    }

    /**
     * This sample with a weight in the loss (Keras' {@code sample_weight}): its loss counts {@code weight} times;
     * 0 removes its effect on training. Stacked by {@link Pipeline#batch} into {@link Batch#weights()}.
     *
     * @param weight the weight
     * @return a new sample
     */
    public Sample withWeight(float weight) {
        return new Sample(inputs(), targets(), Tensor.scalar(weight), inputNames, targetNames);
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

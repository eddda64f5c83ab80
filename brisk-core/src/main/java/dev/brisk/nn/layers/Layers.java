package dev.brisk.nn.layers;

import dev.brisk.ops.image.FillMode;
import dev.brisk.ops.image.Interpolation;
import dev.brisk.nn.Activation;
import dev.brisk.nn.InputLayer;
import dev.brisk.nn.Layer;
import dev.brisk.nn.Initializer;
import dev.brisk.nn.Regularizer;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;

/** Static factories for the built-in layers, with Keras' defaults. */
public final class Layers {
    private Layers() {
    }

    /**
     * An input layer for samples of shape {@code dims} (first layer of a Sequential model).
     *
     * @param dims the per-sample dimensions, {@link Shape#OPEN} (Keras' {@code None}) for a length each batch gives
     * @return the input layer
     */
    public static InputLayer input(int... dims) {
        return new InputLayer(Shape.of(dims), null);
    }

    /**
     * Dense with no activation (logits).
     *
     * @param units output units
     * @return the layer (Glorot uniform kernel, zero bias)
     */
    public static Dense dense(int units) {
        return dense(units, Activation.LINEAR);
    }

    /**
     * Dense with {@code activation}.
     *
     * @param units output units
     * @param activation applied to the output
     * @return the layer (Glorot uniform kernel, zero bias)
     */
    public static Dense dense(int units, Activation activation) {
        return new Dense(units, activation, true, Initializer.glorotUniform(), Initializer.zeros(), null, null);
    }

    /**
     * Dense with an L2 penalty on the kernel.
     *
     * @param units output units
     * @param activation applied to the output
     * @param kernelRegularizer the penalty, e.g. {@code Regularizer.l2(0.01f)}
     * @return the layer
     */
    public static Dense dense(int units, Activation activation, Regularizer kernelRegularizer) {
        return new Dense(units, activation, true, Initializer.glorotUniform(), Initializer.zeros(),
                kernelRegularizer, null);
    }

    /**
     * Conv2D with a square kernel, stride 1, "valid" padding.
     *
     * @param filters output channels
     * @param kernelSize kernel height and width
     * @param activation applied to the output
     * @return the layer (Glorot uniform kernel, zero bias)
     */
    public static Conv2D conv2d(int filters, int kernelSize, Activation activation) {
        return conv2d(filters, kernelSize, 1, Padding.VALID, activation);
    }

    /**
     * Conv2D with a square kernel, the given stride and padding.
     *
     * @param filters output channels
     * @param kernelSize kernel height and width
     * @param stride the step in both directions
     * @param padding "valid" or "same"
     * @param activation applied to the output
     * @return the layer (Glorot uniform kernel, zero bias)
     */
    public static Conv2D conv2d(int filters, int kernelSize, int stride, Padding padding, Activation activation) {
        return new Conv2D(filters, kernelSize, kernelSize, stride, stride, padding, activation, true,
                Initializer.glorotUniform(), Initializer.zeros(), null, null);
    }

    /**
     * Max pooling with a square window; strides equal to the window.
     *
     * @param poolSize window height and width
     * @return the layer, with "valid" padding
     */
    public static MaxPooling2D maxPooling2d(int poolSize) {
        return new MaxPooling2D(poolSize, poolSize, poolSize, poolSize, Padding.VALID, null);
    }

    /**
     * MaxPooling2D with a square window, the given stride and padding.
     *
     * @param poolSize window height and width
     * @param stride the step in both directions
     * @param padding "valid" or "same"
     * @return the layer
     */
    public static MaxPooling2D maxPooling2d(int poolSize, int stride, Padding padding) {
        return new MaxPooling2D(poolSize, poolSize, stride, stride, padding, null);
    }

    /**
     * AveragePooling2D with a square window, stride equal to the window, "valid" padding.
     *
     * @param poolSize window height and width
     * @return the layer
     */
    public static AveragePooling2D averagePooling2d(int poolSize) {
        return new AveragePooling2D(poolSize, poolSize, poolSize, poolSize, Padding.VALID, null);
    }

    /**
     * AveragePooling2D with a square window, the given stride and padding.
     *
     * @param poolSize window height and width
     * @param stride the step in both directions
     * @param padding "valid" or "same"
     * @return the layer
     */
    public static AveragePooling2D averagePooling2d(int poolSize, int stride, Padding padding) {
        return new AveragePooling2D(poolSize, poolSize, stride, stride, padding, null);
    }

    /**
     * GlobalAveragePooling2D.
     *
     * @return the layer
     */
    public static GlobalAveragePooling2D globalAveragePooling2d() {
        return new GlobalAveragePooling2D(null);
    }

    /**
     * Flatten.
     *
     * @return the layer
     */
    public static Flatten flatten() {
        return new Flatten(null);
    }

    /**
     * Reshape to a per-sample {@code targetShape}.
     *
     * @param targetShape the per-sample shape; one dimension may be -1
     * @return the layer
     */
    public static Reshape reshape(int... targetShape) {
        return new Reshape(targetShape, null);
    }

    /**
     * Dropout of a fraction {@code rate}.
     *
     * @param rate the fraction dropped in training
     * @return the layer
     */
    public static Dropout dropout(float rate) {
        return new Dropout(rate, null);
    }

    /**
     * BatchNormalization with Keras' defaults: momentum 0.99, epsilon 1e-3.
     *
     * @return the layer
     */
    public static BatchNormalization batchNormalization() {
        return new BatchNormalization(0.99f, 1e-3f, null);
    }

    /**
     * An activation as a layer of its own.
     *
     * @param activation the activation
     * @return the layer
     */
    public static ActivationLayer activation(Activation activation) {
        return new ActivationLayer(activation, null);
    }

    /**
     * Add.
     *
     * @return the layer
     */
    public static Add add() {
        return new Add(null);
    }

    /**
     * Concatenate along the last axis.
     *
     * @return the layer
     */
    public static Concatenate concatenate() {
        return new Concatenate(-1, null);
    }

    /**
     * Concatenate along {@code axis}.
     *
     * @param axis the axis, counted with the batch axis; negative counts from the end
     * @return the layer
     */
    public static Concatenate concatenate(int axis) {
        return new Concatenate(axis, null);
    }

    /**
     * LayerNormalization with Keras' defaults: the last axis, epsilon 1e-3, learned gamma and beta.
     *
     * @return the layer
     */
    public static LayerNormalization layerNormalization() {
        return new LayerNormalization(-1, 1e-3f, true, true, null);
    }

    /**
     * MultiHeadAttention with Keras' defaults: value size {@code keyDim}, no dropout, biases, no causal mask, no
     * attention mask input.
     *
     * @param numHeads the number of heads
     * @param keyDim the size of each head's query and key
     * @return the layer
     */
    public static MultiHeadAttention multiHeadAttention(int numHeads, int keyDim) {
        return new MultiHeadAttention(numHeads, keyDim, keyDim, 0f, true, false, false, null);
    }

    /**
     * MultiHeadAttention with Keras' defaults but for the causal mask, as a decoder's self-attention uses it.
     *
     * @param numHeads the number of heads
     * @param keyDim the size of each head's query and key
     * @param useCausalMask whether each query position attends only to key positions up to its own
     * @return the layer
     */
    public static MultiHeadAttention multiHeadAttention(int numHeads, int keyDim, boolean useCausalMask) {
        return new MultiHeadAttention(numHeads, keyDim, keyDim, 0f, true, useCausalMask, false, null);
    }

    /**
     * An input layer for samples of shape {@code dims} and element type {@code dtype} (Keras'
     * {@code Input(shape, dtype="int32")} for token ids).
     *
     * @param dtype the element type of the data, {@link DType#INT32} for token ids
     * @param dims the per-sample dimensions, {@link Shape#OPEN} (Keras' {@code None}) for a length each batch gives
     * @return the input layer
     */
    public static InputLayer input(DType dtype, int... dims) {
        return new InputLayer(Shape.of(dims), dtype, null);
    }

    /**
     * Embedding with Keras' defaults: table initialized uniform in [-0.05, 0.05], no masking.
     *
     * @param inputDim the vocabulary size (largest id + 1)
     * @param outputDim the size of each embedding vector
     * @return the layer
     */
    public static Embedding embedding(int inputDim, int outputDim) {
        return embedding(inputDim, outputDim, false);
    }

    /**
     * Embedding with Keras' default initializer, uniform in [-0.05, 0.05].
     *
     * @param inputDim the vocabulary size (largest id + 1)
     * @param outputDim the size of each embedding vector
     * @param maskZero whether id 0 is padding (the output then carries the mask {@code id != 0})
     * @return the layer
     */
    public static Embedding embedding(int inputDim, int outputDim, boolean maskZero) {
        return new Embedding(inputDim, outputDim, Initializer.randomUniform(-0.05f, 0.05f), maskZero, null);
    }

    /**
     * The position of every step, {@code (batch, steps)} INT32 ids {@code 0 .. steps-1}: the input of an
     * {@link #embedding} over positions, a learned positional embedding.
     *
     * @return the layer
     */
    public static Positions positions() {
        return new Positions(null);
    }

    /**
     * Conv1D with stride 1, "valid" padding and no dilation.
     *
     * @param filters output channels
     * @param kernelSize the window length in steps
     * @param activation applied to the output
     * @return the layer (Glorot uniform kernel, zero bias)
     */
    public static Conv1D conv1d(int filters, int kernelSize, Activation activation) {
        return conv1d(filters, kernelSize, 1, Padding.VALID, activation);
    }

    /**
     * Conv1D with the given stride and padding (VALID, SAME or CAUSAL).
     *
     * @param filters output channels
     * @param kernelSize the window length in steps
     * @param stride the step between windows
     * @param padding VALID, SAME or CAUSAL
     * @param activation applied to the output
     * @return the layer (Glorot uniform kernel, zero bias)
     */
    public static Conv1D conv1d(int filters, int kernelSize, int stride, Padding padding, Activation activation) {
        return new Conv1D(filters, kernelSize, stride, padding, 1, activation, true, Initializer.glorotUniform(),
                Initializer.zeros(), null, null);
    }

    /**
     * Conv1D with a dilation rate (Keras' {@code dilation_rate}; stride 1), VALID, SAME or CAUSAL padding.
     *
     * @param filters output channels
     * @param kernelSize the window length in steps
     * @param padding VALID, SAME or CAUSAL
     * @param dilationRate the spacing of the window's taps
     * @param activation applied to the output
     * @return the layer (Glorot uniform kernel, zero bias)
     */
    public static Conv1D conv1d(int filters, int kernelSize, Padding padding, int dilationRate,
                                Activation activation) {
        return new Conv1D(filters, kernelSize, 1, padding, dilationRate, activation, true,
                Initializer.glorotUniform(), Initializer.zeros(), null, null);
    }

    /**
     * MaxPooling1D with stride equal to the pool size and "valid" padding (Keras' defaults).
     *
     * @param poolSize the window length
     * @return the layer
     */
    public static MaxPooling1D maxPooling1d(int poolSize) {
        return new MaxPooling1D(poolSize, poolSize, Padding.VALID, null);
    }

    /**
     * AveragePooling1D with stride equal to the pool size and "valid" padding (Keras' defaults).
     *
     * @param poolSize the window length
     * @return the layer
     */
    public static AveragePooling1D averagePooling1d(int poolSize) {
        return new AveragePooling1D(poolSize, poolSize, Padding.VALID, null);
    }

    /**
     * GlobalAveragePooling1D (masked when its input carries an Embedding's mask).
     *
     * @return the layer
     */
    public static GlobalAveragePooling1D globalAveragePooling1d() {
        return new GlobalAveragePooling1D(null);
    }

    /**
     * GlobalMaxPooling1D.
     *
     * @return the layer
     */
    public static GlobalMaxPooling1D globalMaxPooling1d() {
        return new GlobalMaxPooling1D(null);
    }

    /**
     * A Keras SimpleRNN layer of {@code units} that outputs the last state.
     *
     * @param units the state size
     * @return the layer
     */
    public static SimpleRNN simpleRnn(int units) {
        return new SimpleRNN(units, false, false, null);
    }

    /**
     * A Keras SimpleRNN layer of {@code units}.
     *
     * @param units the state size
     * @param returnSequences true to output every step's state, false for the last
     * @param goBackwards true to process the sequence from its last step
     * @return the layer
     */
    public static SimpleRNN simpleRnn(int units, boolean returnSequences, boolean goBackwards) {
        return new SimpleRNN(units, returnSequences, goBackwards, null);
    }

    /**
     * A Keras SimpleRNN layer of {@code units} with {@code return_state}: call it with {@link
     * dev.brisk.nn.Layer#applyAll} for the output and the final state.
     *
     * @param units the state size
     * @param returnSequences true to output every step's state, false for the last
     * @param goBackwards true to process the sequence from its last step
     * @param returnState true to output the final state too
     * @return the layer
     */
    public static SimpleRNN simpleRnn(int units, boolean returnSequences, boolean goBackwards, boolean returnState) {
        return new SimpleRNN(units, returnSequences, goBackwards, returnState, null);
    }

    /**
     * A Keras LSTM layer of {@code units} that outputs the last state.
     *
     * @param units the state size
     * @return the layer
     */
    public static LSTM lstm(int units) {
        return new LSTM(units, false, false, null);
    }

    /**
     * A Keras LSTM layer of {@code units}.
     *
     * @param units the state size
     * @param returnSequences true to output every step's state, false for the last
     * @param goBackwards true to process the sequence from its last step
     * @return the layer
     */
    public static LSTM lstm(int units, boolean returnSequences, boolean goBackwards) {
        return new LSTM(units, returnSequences, goBackwards, null);
    }

    /**
     * A Keras LSTM layer of {@code units} with {@code return_state}: call it with {@link
     * dev.brisk.nn.Layer#applyAll} for the output and the final states h and c.
     *
     * @param units the state size
     * @param returnSequences true to output every step's state, false for the last
     * @param goBackwards true to process the sequence from its last step
     * @param returnState true to output the final states too
     * @return the layer
     */
    public static LSTM lstm(int units, boolean returnSequences, boolean goBackwards, boolean returnState) {
        return new LSTM(units, returnSequences, goBackwards, returnState, null);
    }

    /**
     * A Keras GRU (reset_after=true) layer of {@code units} that outputs the last state.
     *
     * @param units the state size
     * @return the layer
     */
    public static GRU gru(int units) {
        return new GRU(units, false, false, null);
    }

    /**
     * A Keras GRU (reset_after=true) layer of {@code units}.
     *
     * @param units the state size
     * @param returnSequences true to output every step's state, false for the last
     * @param goBackwards true to process the sequence from its last step
     * @return the layer
     */
    public static GRU gru(int units, boolean returnSequences, boolean goBackwards) {
        return new GRU(units, returnSequences, goBackwards, null);
    }

    /**
     * Keras' {@code ReLU} layer with its defaults: {@code max(x, 0)}.
     *
     * @return the layer
     */
    public static ReLU relu() {
        return new ReLU(null, 0f, 0f, null);
    }

    /**
     * Keras' {@code ReLU} layer with its options.
     *
     * @param maxValue the largest output, or null for none
     * @param negativeSlope the slope below the threshold
     * @param threshold where the unit turns on
     * @return the layer
     */
    public static ReLU relu(Float maxValue, float negativeSlope, float threshold) {
        return new ReLU(maxValue, negativeSlope, threshold, null);
    }

    /**
     * Keras' {@code LeakyReLU} layer with its default slope 0.3.
     *
     * @return the layer
     */
    public static LeakyReLU leakyRelu() {
        return new LeakyReLU(LeakyReLU.DEFAULT_NEGATIVE_SLOPE, null);
    }

    /**
     * Keras' {@code LeakyReLU} layer.
     *
     * @param negativeSlope the slope for negative inputs
     * @return the layer
     */
    public static LeakyReLU leakyRelu(float negativeSlope) {
        return new LeakyReLU(negativeSlope, null);
    }

    /**
     * Keras' {@code PReLU}: a learned slope per element, shared along {@code sharedAxes} (1-based sample axes).
     *
     * @param sharedAxes axes that share one slope, e.g. {@code 1, 2} for one slope per image channel
     * @return the layer
     */
    public static PReLU prelu(int... sharedAxes) {
        return new PReLU(sharedAxes, null);
    }

    /**
     * Keras' {@code ELU} layer.
     *
     * @param alpha the negative saturation's magnitude (Keras' default 1)
     * @return the layer
     */
    public static ELU elu(float alpha) {
        return new ELU(alpha, null);
    }

    /**
     * Keras' {@code Softmax} layer along {@code axis}.
     *
     * @param axis the axis (Keras' default -1); the batch axis 0 is refused
     * @return the layer
     */
    public static Softmax softmax(int axis) {
        return new Softmax(axis, null);
    }

    /**
     * Keras' {@code Multiply} merge layer.
     *
     * @return the layer
     */
    public static Multiply multiply() {
        return new Multiply(null);
    }

    /**
     * Keras' {@code Subtract} merge layer (two inputs).
     *
     * @return the layer
     */
    public static Subtract subtract() {
        return new Subtract(null);
    }

    /**
     * Keras' {@code Average} merge layer.
     *
     * @return the layer
     */
    public static Average average() {
        return new Average(null);
    }

    /**
     * Keras' {@code Maximum} merge layer.
     *
     * @return the layer
     */
    public static Maximum maximum() {
        return new Maximum(null);
    }

    /**
     * Keras' {@code Minimum} merge layer.
     *
     * @return the layer
     */
    public static Minimum minimum() {
        return new Minimum(null);
    }

    /**
     * Keras' {@code Permute} of the sample axes.
     *
     * @param dims the new order of the sample axes, 1-based
     * @return the layer
     */
    public static Permute permute(int... dims) {
        return new Permute(dims, null);
    }

    /**
     * Keras' {@code RepeatVector}.
     *
     * @param n how many times each sample is repeated
     * @return the layer
     */
    public static RepeatVector repeatVector(int n) {
        return new RepeatVector(n, null);
    }

    /**
     * Keras' {@code UpSampling2D} (nearest neighbour) by the same factor along both axes.
     *
     * @param size the factor (Keras' default 2)
     * @return the layer
     */
    public static UpSampling2D upSampling2d(int size) {
        return new UpSampling2D(size, size, null);
    }

    /**
     * Keras' {@code ZeroPadding2D} with the same padding on every side.
     *
     * @param padding rows and columns of zeros on each side (Keras' default 1)
     * @return the layer
     */
    public static ZeroPadding2D zeroPadding2d(int padding) {
        return new ZeroPadding2D(padding, padding, padding, padding, null);
    }

    /**
     * Conv2D with a square kernel whose taps are {@code dilationRate} apart in both directions (stride 1).
     *
     * @param filters output channels
     * @param kernelSize kernel height and width
     * @param padding "valid" or "same"
     * @param dilationRate the spacing of the taps
     * @param activation applied to the output
     * @return the layer (Glorot uniform kernel, zero bias)
     */
    public static Conv2D conv2d(int filters, int kernelSize, Padding padding, int dilationRate,
                                Activation activation) {
        return new Conv2D(filters, kernelSize, kernelSize, 1, 1, dilationRate, dilationRate, padding, activation,
                true, Initializer.glorotUniform(), Initializer.zeros(), null, null);
    }

    /**
     * Keras' {@code DepthwiseConv2D} with a square kernel, no dilation.
     *
     * @param kernelSize kernel height and width
     * @param stride the step in both directions
     * @param padding "valid" or "same"
     * @param depthMultiplier filters per input channel (Keras' default 1)
     * @param activation applied to the output
     * @return the layer (Glorot uniform kernel, zero bias)
     */
    public static DepthwiseConv2D depthwiseConv2d(int kernelSize, int stride, Padding padding, int depthMultiplier,
                                                  Activation activation) {
        return new DepthwiseConv2D(kernelSize, kernelSize, stride, stride, 1, 1, depthMultiplier, padding, activation,
                true, Initializer.glorotUniform(), Initializer.zeros(), null, null);
    }

    /**
     * Keras' {@code SeparableConv2D} with a square kernel, no dilation, depth multiplier 1.
     *
     * @param filters output channels
     * @param kernelSize kernel height and width
     * @param stride the step in both directions
     * @param padding "valid" or "same"
     * @param activation applied to the output
     * @return the layer (Glorot uniform kernels, zero bias)
     */
    public static SeparableConv2D separableConv2d(int filters, int kernelSize, int stride, Padding padding,
                                                  Activation activation) {
        return new SeparableConv2D(filters, kernelSize, kernelSize, stride, stride, 1, 1, 1, padding, activation,
                true, Initializer.glorotUniform(), Initializer.glorotUniform(), Initializer.zeros(), null);
    }

    /**
     * Keras' {@code Conv2DTranspose} with a square kernel.
     *
     * @param filters output channels
     * @param kernelSize kernel height and width
     * @param stride the step in both directions (the output is about this many times larger)
     * @param padding "valid" or "same"
     * @param activation applied to the output
     * @return the layer (Glorot uniform kernel, zero bias)
     */
    public static Conv2DTranspose conv2dTranspose(int filters, int kernelSize, int stride, Padding padding,
                                                  Activation activation) {
        return new Conv2DTranspose(filters, kernelSize, kernelSize, stride, stride, padding, activation, true,
                Initializer.glorotUniform(), Initializer.zeros(), null, null);
    }

    /**
     * Keras' {@code GlobalMaxPooling2D}.
     *
     * @return the layer
     */
    public static GlobalMaxPooling2D globalMaxPooling2d() {
        return new GlobalMaxPooling2D(null);
    }

    /**
     * Keras' {@code Cropping2D}.
     *
     * @param top rows cut off above
     * @param bottom rows cut off below
     * @param left columns cut off on the left
     * @param right columns cut off on the right
     * @return the layer
     */
    public static Cropping2D cropping2d(int top, int bottom, int left, int right) {
        return new Cropping2D(top, bottom, left, right, null);
    }

    /**
     * Keras' {@code Dot} along one axis of each input.
     *
     * @param axis1 the first input's axis (batch axis 0, as Keras counts)
     * @param axis2 the second input's axis
     * @param normalize whether to L2-normalize both first (the output is then the cosine similarity)
     * @return the layer
     */
    public static Dot dot(int axis1, int axis2, boolean normalize) {
        return new Dot(axis1, axis2, normalize, null);
    }

    /**
     * Keras' {@code SpatialDropout2D}: whole channels dropped in training.
     *
     * @param rate the fraction of channels dropped
     * @return the layer
     */
    public static SpatialDropout2D spatialDropout2d(float rate) {
        return new SpatialDropout2D(rate, null);
    }

    /**
     * Keras' {@code GaussianNoise}: normal noise added in training.
     *
     * @param stddev the noise's standard deviation
     * @return the layer
     */
    public static GaussianNoise gaussianNoise(float stddev) {
        return new GaussianNoise(stddev, null);
    }

    /**
     * Keras' {@code RandomFlip} layer (training only): flips each image left-right and top-bottom, each with
     * probability 1/2 (Keras' default mode {@code "horizontal_and_vertical"}).
     *
     * @param mode {@code "horizontal"}, {@code "vertical"} or {@code "horizontal_and_vertical"}
     * @return the layer
     */
    public static RandomFlip randomFlip(String mode) {
        return new RandomFlip(RandomFlip.mode(mode), null);
    }

    /**
     * Keras' {@code RandomRotation(factor)} layer (training only): rotations by up to {@code factor} of a full turn
     * either way, reflect fill, bilinear.
     *
     * @param factor the largest fraction of a turn, at least 0
     * @return the layer
     */
    public static RandomRotation randomRotation(double factor) {
        return new RandomRotation(-factor, factor, FillMode.REFLECT, 0f, Interpolation.BILINEAR, null);
    }

    /**
     * Keras' {@code RandomZoom(height_factor)} layer (training only): zooms by up to {@code heightFactor} either way
     * with the aspect kept, reflect fill, bilinear.
     *
     * @param heightFactor the largest zoom fraction, in [0, 1]
     * @return the layer
     */
    public static RandomZoom randomZoom(double heightFactor) {
        return new RandomZoom(new double[] {-heightFactor, heightFactor}, null, FillMode.REFLECT, 0f,
                Interpolation.BILINEAR, null);
    }

    /**
     * Keras' {@code RandomTranslation(height_factor, width_factor)} layer (training only): shifts by up to the
     * given fractions of the height and width either way, reflect fill, bilinear.
     *
     * @param heightFactor the largest vertical fraction, in [0, 1]
     * @param widthFactor the largest horizontal fraction, in [0, 1]
     * @return the layer
     */
    public static RandomTranslation randomTranslation(double heightFactor, double widthFactor) {
        return new RandomTranslation(new double[] {-heightFactor, heightFactor},
                new double[] {-widthFactor, widthFactor}, FillMode.REFLECT, 0f, Interpolation.BILINEAR, null);
    }

    /**
     * Keras' {@code RandomContrast(factor)} layer (training only): contrast factors in {@code [1 - factor,
     * 1 + factor]}, values clipped to [0, 255].
     *
     * @param factor in [0, 1]
     * @return the layer
     */
    public static RandomContrast randomContrast(double factor) {
        return new RandomContrast(factor, factor, 0f, 255f, null);
    }

    /**
     * A {@code Lambda} layer of one input: {@code body} over the graph API. It cannot be saved in a {@code .keras}
     * file.
     *
     * @param body the function of the graph and the input
     * @return the layer
     */
    public static Lambda lambda(java.util.function.BiFunction<dev.brisk.graph.Graph, dev.brisk.ops.Node,
            dev.brisk.ops.Node> body) {
        return new Lambda((g, inputs) -> body.apply(g, inputs.get(0)), null);
    }

    /**
     * Keras' {@code BatchNormalization} with its {@code axis}, {@code center} and {@code scale} options (momentum
     * 0.99, epsilon 1e-3).
     *
     * @param axis the channel axis, batch axis included (-1 the last)
     * @param center whether to learn an offset
     * @param scale whether to learn a scale
     * @return the layer
     */
    public static BatchNormalization batchNormalization(int axis, boolean center, boolean scale) {
        return new BatchNormalization(axis, 0.99f, 1e-3f, center, scale, null);
    }

    /**
     * A Keras GRU (reset_after=true) layer of {@code units} with {@code return_state}: call it with {@link
     * dev.brisk.nn.Layer#applyAll} for the output and the final state.
     *
     * @param units the state size
     * @param returnSequences true to output every step's state, false for the last
     * @param goBackwards true to process the sequence from its last step
     * @param returnState true to output the final state too
     * @return the layer
     */
    public static GRU gru(int units, boolean returnSequences, boolean goBackwards, boolean returnState) {
        return new GRU(units, returnSequences, goBackwards, returnState, null);
    }

    /**
     * Keras' {@code Bidirectional(layer)}, the directions' outputs joined along the last axis.
     *
     * @param layer the recurrent layer, a template for the two copies
     * @return the layer
     */
    public static Bidirectional bidirectional(Recurrent layer) {
        return new Bidirectional(layer, Bidirectional.MergeMode.CONCAT, null);
    }

    /**
     * Keras' {@code Bidirectional(layer, merge_mode)}.
     *
     * @param layer the recurrent layer, a template for the two copies
     * @param mergeMode how the directions' outputs are combined
     * @return the layer
     */
    public static Bidirectional bidirectional(Recurrent layer, Bidirectional.MergeMode mergeMode) {
        return new Bidirectional(layer, mergeMode, null);
    }

    /**
     * Keras' {@code TimeDistributed(layer)}: {@code layer} applied to every step of a sequence.
     *
     * @param layer the layer applied to each step
     * @return the layer
     */
    public static TimeDistributed timeDistributed(Layer layer) {
        return new TimeDistributed(layer, null);
    }
}

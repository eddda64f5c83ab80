package dev.brisk.backend;

import dev.brisk.ops.AttentionGeometry;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.PoolGeometry;
import dev.brisk.ops.RecurrentGeometry;
import dev.brisk.ops.ReduceFn;
import dev.brisk.ops.UnaryFn;
import dev.brisk.ops.image.AugmentBatch;
import dev.brisk.ops.image.ImageAugment;

/**
 * The kernel SPI: the few dozen primitives a backend implements. Everything else (layers, losses, optimisers) is
 * composed from these by the op graph.
 *
 * <p>Conventions: all tensors are dense row-major float32 windows of a {@code float[]} starting at an offset;
 * images are NHWC (Keras' channels_last) and conv kernels are {@code [kh, kw, inChannels, outChannels]}. Kernels
 * write every element of their output (no accumulation unless a parameter says so), never allocate per call in
 * the steady state, and split work with {@link dev.brisk.parallel.Parallel} (never a pool of their own).
 * Output ranges never alias input ranges unless the method says so.
 */
public interface Kernels {

    /**
     * A short name for logs ("jvm-vector", "jvm-scalar").
     *
     * @return the name
     */
    String name();

    /**
     * General matrix multiply {@code C = op(A) * op(B)} (or {@code C += ...} when {@code accumulate}), where
     * {@code op(X)} is X or its transpose. A is {@code m x k} after op, B is {@code k x n} after op, C is
     * {@code m x n}; {@code lda}, {@code ldb}, {@code ldc} are the row strides of the arrays as stored.
     *
     * @param transA whether A is stored transposed ({@code k x m})
     * @param transB whether B is stored transposed ({@code n x k})
     * @param m rows of C
     * @param n columns of C
     * @param k the inner dimension
     * @param a A's array
     * @param aOff index of A's first element
     * @param lda A's row stride as stored
     * @param b B's array
     * @param bOff index of B's first element
     * @param ldb B's row stride as stored
     * @param c C's array
     * @param cOff index of C's first element
     * @param ldc C's row stride
     * @param accumulate true to add to C, false to overwrite it
     */
    void gemm(boolean transA, boolean transB, int m, int n, int k,
              float[] a, int aOff, int lda,
              float[] b, int bOff, int ldb,
              float[] c, int cOff, int ldc,
              boolean accumulate);

    /**
     * {@code C = fn(op(A) op(B) + bias)} with one bias per column of C, in one call (as
     * {@link #conv2dBiasActivation} is for a convolution); null {@code bias} or {@code fn} skip that part.
     *
     * @param transA whether A is stored transposed
     * @param transB whether B is stored transposed
     * @param m rows of C
     * @param n columns of C
     * @param k the inner dimension
     * @param a A's array
     * @param aOff index of A's first element
     * @param lda A's row stride as stored
     * @param b B's array
     * @param bOff index of B's first element
     * @param ldb B's row stride as stored
     * @param bias {@code n} biases, or null
     * @param biasOff index of the first bias
     * @param fn the activation, or null
     * @param alpha the activation's parameter
     * @param c C's array
     * @param cOff index of C's first element
     * @param ldc C's row stride
     */
    void gemmBiasActivation(boolean transA, boolean transB, int m, int n, int k,
                            float[] a, int aOff, int lda,
                            float[] b, int bOff, int ldb,
                            float[] bias, int biasOff, UnaryFn fn, float alpha,
                            float[] c, int cOff, int ldc);

    /**
     * {@code Z = op(A) op(B) + bias} kept in C and {@code Y = fn(Z)} in {@code y}, in one call: for an activation
     * whose gradient reads its input (gelu), the call that computes Z applies the activation to each block while it
     * is in cache instead of a pass over Z of its own; the bits of {@link #gemmBiasActivation} with no activation,
     * then {@link #unary}.
     *
     * @param transA whether A is stored transposed
     * @param transB whether B is stored transposed
     * @param m rows of C
     * @param n columns of C
     * @param k the inner dimension
     * @param a A's array
     * @param aOff index of A's first element
     * @param lda A's row stride as stored
     * @param b B's array
     * @param bOff index of B's first element
     * @param ldb B's row stride as stored
     * @param bias {@code n} biases, or null
     * @param biasOff index of the first bias
     * @param fn the activation
     * @param alpha the activation's parameter
     * @param c Z's array
     * @param cOff index of Z's first element
     * @param y Y's array, laid out as Z
     * @param yOff index of Y's first element
     * @param ldc Z's (and Y's) row stride
     */
    void gemmBiasActivationKeepingInput(boolean transA, boolean transB, int m, int n, int k,
                                        float[] a, int aOff, int lda,
                                        float[] b, int bOff, int ldb,
                                        float[] bias, int biasOff, UnaryFn fn, float alpha,
                                        float[] c, int cOff, float[] y, int yOff, int ldc);

    /**
     * {@code P = activation(op(A) op(B) + bias)} as {@link #gemmBiasActivation} computes it, then
     * {@code C = fn(P, X)}, or {@code fn(X, P)} when not {@code productFirst}, in one call: the binary op applied to
     * each block of C while it is in cache (a residual add, an activation's gradient on the product that made dy,
     * or the sum of two gradient contributions), with the bits of {@link #gemmBiasActivation} then
     * {@link #binary}.
     *
     * @param transA whether A is stored transposed
     * @param transB whether B is stored transposed
     * @param m rows of C
     * @param n columns of C
     * @param k the inner dimension
     * @param a A's array
     * @param aOff index of A's first element
     * @param lda A's row stride as stored
     * @param b B's array
     * @param bOff index of B's first element
     * @param ldb B's row stride as stored
     * @param bias {@code n} biases, or null
     * @param biasOff index of the first bias
     * @param activation the activation, or null
     * @param activationAlpha the activation's parameter
     * @param fn the binary function
     * @param alpha its parameter (as for {@link #binary})
     * @param x the other operand's array, laid out as C
     * @param xOff index of its first element
     * @param productFirst whether the product is fn's first operand
     * @param c C's array
     * @param cOff index of C's first element
     * @param ldc C's (and X's) row stride
     */
    void gemmBinary(boolean transA, boolean transB, int m, int n, int k,
                    float[] a, int aOff, int lda,
                    float[] b, int bOff, int ldb,
                    float[] bias, int biasOff, UnaryFn activation, float activationAlpha,
                    BinaryFn fn, float alpha, float[] x, int xOff, boolean productFirst,
                    float[] c, int cOff, int ldc);

    /**
     * {@code y[i] = fn(x[i])} for {@code i < n}; {@code x} and {@code y} may be the same range.
     *
     * @param fn the function
     * @param alpha its parameter
     * @param x the input array
     * @param xOff index of the first input
     * @param y the output array
     * @param yOff index of the first output
     * @param n the number of elements
     */
    void unary(UnaryFn fn, float alpha, float[] x, int xOff, float[] y, int yOff, int n);

    /**
     * {@code out[i] = activation(fn(a[i], b[i]))} for {@code i < n}: a binary op of two operands of one shape, then
     * an activation applied to each block while it is in cache, with the bits of {@link #binary} then
     * {@link #unary}. {@code out} may be the same range as an operand.
     *
     * @param fn the binary function
     * @param alpha its parameter (as for {@link #binary})
     * @param a the first operand's array
     * @param aOff index of its first element
     * @param b the second operand's array
     * @param bOff index of its first element
     * @param activation the activation
     * @param activationAlpha the activation's parameter (as for {@link #unary})
     * @param out the output array
     * @param outOff index of the first output
     * @param n the number of elements
     */
    void binaryActivation(BinaryFn fn, float alpha, float[] a, int aOff, float[] b, int bOff, UnaryFn activation,
                          float activationAlpha, float[] out, int outOff, int n);

    /**
     * Runs {@code chain} as one pass: its steps over each block of elements while the block is in cache, with the
     * bits of running each step on its own through {@link #unary} and {@link #binary} (every step is elementwise).
     * {@code out} may be the same range as a {@link ElementwiseChain.Broadcast#FULL} input.
     *
     * @param chain the steps and how each input is read
     * @param inputs each input's array, by input index
     * @param inputOffsets the index of each input's first element
     * @param out the output array
     * @param outOff index of the first output
     */
    void elementwiseChain(ElementwiseChain chain, float[][] inputs, int[] inputOffsets, float[] out, int outOff);

    /**
     * Elementwise {@code out = fn(a, b)} with NumPy broadcasting expressed as strides: {@code outShape} is the
     * shape written (row-major, contiguous); {@code aStrides}/{@code bStrides} give, per axis of {@code outShape},
     * the step in elements of each input (0 on a broadcast axis). {@code out} may alias {@code a} or {@code b}
     * when that input is not broadcast.
     *
     * @param fn the function
     * @param alpha its parameter
     * @param a the first input's array
     * @param aOff index of its first element
     * @param aStrides its stride per axis of {@code outShape}
     * @param b the second input's array
     * @param bOff index of its first element
     * @param bStrides its stride per axis of {@code outShape}
     * @param out the output array
     * @param outOff index of the first output
     * @param outShape the output shape
     */
    void binary(BinaryFn fn, float alpha,
                float[] a, int aOff, int[] aStrides,
                float[] b, int bOff, int[] bStrides,
                float[] out, int outOff, int[] outShape);

    /**
     * Reduces {@code x} of shape {@code shape} over the axes where {@code reduceAxes[axis]} is true; writes the
     * result (the shape with those axes removed, row-major) to {@code out}.
     *
     * @param fn the reduction
     * @param x the input array
     * @param xOff index of the first input
     * @param shape the input shape
     * @param reduceAxes one flag per axis, true where reduced
     * @param out the output array
     * @param outOff index of the first output
     */
    void reduce(ReduceFn fn, float[] x, int xOff, int[] shape, boolean[] reduceAxes, float[] out, int outOff);

    /**
     * Batch statistics of {@code x[rows, channels]}: the mean of each channel into {@code out[0, channels)}, the
     * biased variance about it into {@code out[channels, 2 channels)}. Sums are accumulated in double, the variance
     * in a second pass over the centered values, so that a large mean costs no digits.
     *
     * @param x the input array
     * @param xOff index of the first input
     * @param rows the number of rows (all axes but the last)
     * @param channels the number of channels (the last axis)
     * @param out the output array, 2 channels long
     * @param outOff index of the first output
     */
    void batchNormStatistics(float[] x, int xOff, int rows, int channels, float[] out, int outOff);

    /**
     * {@code y = activation((x - mean) / sqrt(variance + epsilon) * gamma + beta)} over {@code [rows, channels]},
     * the mean and variance read from the {@code [2, channels]} {@code stats}; the activation is applied to each
     * chunk of rows while it is in cache, with the bits of {@link #unary} over the normalized values.
     *
     * @param epsilon added to the variance
     * @param x the input array
     * @param xOff index of the first input
     * @param stats the array of the mean and variance rows
     * @param statsOff index of the first mean
     * @param gamma the scale array
     * @param gammaOff index of the first scale
     * @param beta the shift array
     * @param betaOff index of the first shift
     * @param activation the activation applied to the normalized values, or null for none
     * @param alpha the activation's parameter (as for {@link #unary}); 0 for those without one
     * @param y the output array
     * @param yOff index of the first output
     * @param rows the number of rows
     * @param channels the number of channels
     */
    void batchNorm(float epsilon, float[] x, int xOff, float[] stats, int statsOff, float[] gamma, int gammaOff,
                   float[] beta, int betaOff, UnaryFn activation, float alpha, float[] y, int yOff, int rows,
                   int channels);

    /**
     * {@link #batchNorm} whose normalized values {@code n} meet a second operand of their shape before the
     * activation: {@code y = activation(fn(n, other))}, or {@code fn(other, n)} when {@code !normalizedFirst} (a
     * residual network's {@code relu(bn(x) + shortcut)}), each chunk of rows while it is in cache, with the bits of
     * {@link #batchNorm}, then {@link #binary}, then {@link #unary}. The normalized values are never stored.
     *
     * @param epsilon added to the variance
     * @param x the input array
     * @param xOff index of the first input
     * @param stats the array of the mean and variance rows
     * @param statsOff index of the first mean
     * @param gamma the scale array
     * @param gammaOff index of the first scale
     * @param beta the shift array
     * @param betaOff index of the first shift
     * @param fn the binary function
     * @param fnAlpha its parameter (as for {@link #binary})
     * @param other the second operand's array, laid out as {@code y}
     * @param otherOff index of its first element
     * @param normalizedFirst whether the normalized values are fn's first operand
     * @param activation the activation applied after fn, or null for none
     * @param alpha the activation's parameter
     * @param y the output array
     * @param yOff index of the first output
     * @param rows the number of rows
     * @param channels the number of channels
     */
    void batchNormBinary(float epsilon, float[] x, int xOff, float[] stats, int statsOff, float[] gamma, int gammaOff,
                         float[] beta, int betaOff, BinaryFn fn, float fnAlpha, float[] other, int otherOff,
                         boolean normalizedFirst, UnaryFn activation, float alpha, float[] y, int yOff, int rows,
                         int channels);

    /**
     * The gradients of a batch normalization's beta (sums of {@code dy}) into {@code out[0, channels)} and gamma
     * (sums of {@code dy} times the normalized {@code x}) into {@code out[channels, 2 channels)}, runs of rows summed
     * in float and the runs in double.
     *
     * @param epsilon added to the variance
     * @param dy the output gradient array
     * @param dyOff index of the first output gradient
     * @param gate relu's output, whose gradient {@code gate > 0 ? dy : 0} is taken for {@code dy} on the fly; null
     *             for {@code dy} as it is
     * @param gateOff index of the first gate value
     * @param x the input array of the forward pass
     * @param xOff index of the first input
     * @param stats the array of the mean and variance rows
     * @param statsOff index of the first mean
     * @param out the output array, 2 channels long
     * @param outOff index of the first output
     * @param rows the number of rows
     * @param channels the number of channels
     */
    void batchNormParamGrad(float epsilon, float[] dy, int dyOff, float[] gate, int gateOff, float[] x, int xOff,
                            float[] stats, int statsOff, float[] out, int outOff, int rows, int channels);

    /**
     * The gradient of a batch normalization's input, from {@code dy}, its input, statistics, gamma and the
     * {@link #batchNormParamGrad} {@code sums} of the same {@code dy}: in {@code training} mode, where the
     * statistics are the batch's own, {@code gamma / sd (dy - dbeta / rows - xhat dgamma / rows)}; otherwise
     * {@code gamma / sd dy}.
     *
     * @param epsilon added to the variance
     * @param training whether the statistics are the batch's own
     * @param dy the output gradient array
     * @param dyOff index of the first output gradient
     * @param gate relu's output, whose gradient {@code gate > 0 ? dy : 0} is taken for {@code dy} on the fly; null
     *             for {@code dy} as it is
     * @param gateOff index of the first gate value
     * @param x the input array of the forward pass
     * @param xOff index of the first input
     * @param stats the array of the mean and variance rows
     * @param statsOff index of the first mean
     * @param gamma the scale array
     * @param gammaOff index of the first scale
     * @param sums the array of the dbeta and dgamma rows
     * @param sumsOff index of the first dbeta
     * @param dx the input gradient array
     * @param dxOff index of the first input gradient
     * @param rows the number of rows
     * @param channels the number of channels
     */
    void batchNormGrad(float epsilon, boolean training, float[] dy, int dyOff, float[] gate, int gateOff, float[] x,
                       int xOff, float[] stats, int statsOff, float[] gamma, int gammaOff, float[] sums, int sumsOff,
                       float[] dx, int dxOff, int rows, int channels);

    /**
     * {@link #batchNormParamGrad} of {@code dy} gated by relu of this batch normalization's own output: where
     * {@code fma(x - mean, gamma / sd, beta)}, recomputed from {@code x} with the forward pass's float operations,
     * is not above zero, {@code dy} counts as zero. The same sums as {@link #batchNormParamGrad} given relu's output
     * as its gate, without reading it.
     *
     * @param epsilon added to the variance
     * @param dy the output gradient array (relu's upstream gradient)
     * @param dyOff index of the first output gradient
     * @param x the input array of the forward pass
     * @param xOff index of the first input
     * @param stats the array of the mean and variance rows
     * @param statsOff index of the first mean
     * @param gamma the scale array of the forward pass
     * @param gammaOff index of the first scale
     * @param beta the offset array of the forward pass
     * @param betaOff index of the first offset
     * @param out the output array, 2 channels long
     * @param outOff index of the first output
     * @param rows the number of rows
     * @param channels the number of channels
     */
    void batchNormParamGradUnderRelu(float epsilon, float[] dy, int dyOff, float[] x, int xOff, float[] stats,
                                     int statsOff, float[] gamma, int gammaOff, float[] beta, int betaOff, float[] out,
                                     int outOff, int rows, int channels);

    /**
     * {@link #batchNormGrad} of {@code dy} gated by relu of this batch normalization's own output, recomputed from
     * {@code x} as in {@link #batchNormParamGradUnderRelu}.
     *
     * @param epsilon added to the variance
     * @param training whether the statistics are the batch's own
     * @param dy the output gradient array (relu's upstream gradient)
     * @param dyOff index of the first output gradient
     * @param x the input array of the forward pass
     * @param xOff index of the first input
     * @param stats the array of the mean and variance rows
     * @param statsOff index of the first mean
     * @param gamma the scale array
     * @param gammaOff index of the first scale
     * @param beta the offset array of the forward pass
     * @param betaOff index of the first offset
     * @param sums the array of the dbeta and dgamma rows
     * @param sumsOff index of the first dbeta
     * @param dx the input gradient array
     * @param dxOff index of the first input gradient
     * @param rows the number of rows
     * @param channels the number of channels
     */
    void batchNormGradUnderRelu(float epsilon, boolean training, float[] dy, int dyOff, float[] x, int xOff,
                                float[] stats, int statsOff, float[] gamma, int gammaOff, float[] beta, int betaOff,
                                float[] sums, int sumsOff, float[] dx, int dxOff, int rows, int channels);

    /**
     * Row-wise softmax (or log-softmax when {@code log}) of a {@code rows x cols} matrix.
     *
     * @param log true for log-softmax
     * @param x the input array
     * @param xOff index of the first input
     * @param y the output array
     * @param yOff index of the first output
     * @param rows the number of rows
     * @param cols the row length
     */
    void softmax(boolean log, float[] x, int xOff, float[] y, int yOff, int rows, int cols);

    /**
     * Backward of row-wise softmax/log-softmax given the forward output {@code y} and upstream gradient
     * {@code dy}: softmax {@code dx = y * (dy - sum(dy * y))}; log-softmax {@code dx = dy - exp(y) * sum(dy)}.
     *
     * @param log true for log-softmax
     * @param y the forward output
     * @param yOff index of its first element
     * @param dy the upstream gradient
     * @param dyOff index of its first element
     * @param dx the input gradient, written
     * @param dxOff index of its first element
     * @param rows the number of rows
     * @param cols the row length
     */
    void softmaxBackward(boolean log, float[] y, int yOff, float[] dy, int dyOff, float[] dx, int dxOff,
                         int rows, int cols);

    /**
     * {@code out[r] = x[r, index[r]]} for a {@code rows x cols} matrix, with class indexes stored as floats.
     *
     * @param x the matrix
     * @param xOff index of its first element
     * @param index the class indexes, one per row
     * @param indexOff index of the first class index
     * @param out the gathered values
     * @param outOff index of the first output
     * @param rows the number of rows
     * @param cols the row length
     * @throws IllegalArgumentException naming the row and value when an index is not an integer in {@code [0, cols)}
     */
    void gatherRows(float[] x, int xOff, float[] index, int indexOff, float[] out, int outOff, int rows, int cols);

    /**
     * The backward of {@link #gatherRows}: {@code dx = 0; dx[r, index[r]] = dy[r]}.
     *
     * @param dy the upstream gradient, one per row
     * @param dyOff index of its first element
     * @param index the class indexes, one per row
     * @param indexOff index of the first class index
     * @param dx the matrix gradient, fully written
     * @param dxOff index of its first element
     * @param rows the number of rows
     * @param cols the row length
     */
    void scatterRows(float[] dy, int dyOff, float[] index, int indexOff, float[] dx, int dxOff, int rows, int cols);

    /**
     * Softmax cross-entropy of each row of {@code x} ({@code [rows, cols]}) against its class index (a float,
     * checked to be an integer in {@code [0, cols)}): {@code loss[r] = max + log(sum exp(x - max)) - x[r, index[r]]},
     * with the same float operations as {@code -}{@link #gatherRows} of {@link #softmax log-softmax}, so the same
     * bits. {@code probs} receives the row probabilities {@code exp(x - max) / sum} for
     * {@link #sparseSoftmaxCrossEntropyBackward}.
     *
     * @param x the logits
     * @param xOff index of the first logit
     * @param index the class indexes, one per row
     * @param indexOff index of the first class index
     * @param probs receives the row probabilities, {@code rows x cols}
     * @param probsOff index of the first probability
     * @param loss receives one loss per row
     * @param lossOff index of the first loss
     * @param rows the number of rows
     * @param cols the row length
     * @throws IllegalArgumentException naming the row, for a class index that is not an integer in {@code [0, cols)}
     */
    void sparseSoftmaxCrossEntropy(float[] x, int xOff, float[] index, int indexOff, float[] probs, int probsOff,
                                   float[] loss, int lossOff, int rows, int cols);

    /**
     * {@code dx[r, j] = dy[r] (probs[r, j] - (j == index[r] ? 1 : 0))}.
     *
     * @param probs the row probabilities the forward kernel kept
     * @param probsOff index of the first probability
     * @param index the class indexes, one per row
     * @param indexOff index of the first class index
     * @param dy the upstream gradient, one per row
     * @param dyOff index of its first element
     * @param dx the logits' gradient, written
     * @param dxOff index of its first element
     * @param rows the number of rows
     * @param cols the row length
     * @throws IllegalArgumentException naming the row, for a class index that is not an integer in {@code [0, cols)}
     */
    void sparseSoftmaxCrossEntropyBackward(float[] probs, int probsOff, float[] index, int indexOff, float[] dy,
                                           int dyOff, float[] dx, int dxOff, int rows, int cols);

    /**
     * {@code y = conv2d(x, w)} (cross-correlation as in Keras and PyTorch, no bias).
     *
     * @param g the convolution's geometry
     * @param x the input, NHWC
     * @param xOff index of its first element
     * @param w the kernel, {@code [kh, kw, in, out]}
     * @param wOff index of its first element
     * @param y the output, NHWC
     * @param yOff index of its first element
     */
    void conv2d(ConvGeometry g, float[] x, int xOff, float[] w, int wOff, float[] y, int yOff);

    /**
     * {@code y = fn(conv2d(x, w) + bias)} in one call: the bias (one per output channel) and activation are
     * applied while the output is still in cache. A null {@code bias} adds nothing and a null {@code fn} applies
     * nothing. Each element gets exactly the arithmetic of {@link #conv2d}, then {@link #binary} ADD, then
     * {@link #unary}, so the result is the same bits.
     *
     * @param g the convolution's geometry
     * @param x the input, NHWC
     * @param xOff index of its first element
     * @param w the kernel, {@code [kh, kw, in, out]}
     * @param wOff index of its first element
     * @param bias one bias per output channel, or null
     * @param biasOff index of the first bias
     * @param fn the activation, or null
     * @param alpha the activation's parameter
     * @param y the output, NHWC
     * @param yOff index of its first element
     */
    void conv2dBiasActivation(ConvGeometry g, float[] x, int xOff, float[] w, int wOff, float[] bias, int biasOff,
                              UnaryFn fn, float alpha, float[] y, int yOff);

    /**
     * Whether {@link #conv2dBiasActivationMaxPool} can run this convolution and pooling: it then pools each image
     * while the convolution's output for it is still in cache, and writes that output nowhere else. The planner
     * fuses the two only where this says so (false by default).
     *
     * @param conv the convolution's geometry
     * @param fn the activation, or null
     * @param pool the pooling's geometry
     * @return true when the fused kernel applies
     */
    default boolean poolsConvolutionInCache(ConvGeometry conv, UnaryFn fn, PoolGeometry pool) {
        return false;
    }

    /**
     * {@link #conv2dBiasActivation} then {@link #maxPool2d} of its output with {@code cells} (null for none), the
     * convolution's output kept only image by image in a work buffer: for when nothing else reads it. Only for what
     * {@link #poolsConvolutionInCache} accepts; same bits as the two calls.
     *
     * @param conv the convolution's geometry
     * @param x the input, NHWC
     * @param xOff index of its first element
     * @param w the kernel
     * @param wOff index of its first element
     * @param bias one bias per output channel, or null
     * @param biasOff index of the first bias
     * @param fn the activation, or null
     * @param alpha the activation's parameter
     * @param pool the pooling's geometry
     * @param y the pooled output, NHWC
     * @param yOff index of its first element
     * @param cells receives the cell of each maximum, or null
     * @param cellsOff index of the first cell
     */
    default void conv2dBiasActivationMaxPool(ConvGeometry conv, float[] x, int xOff, float[] w, int wOff,
                                             float[] bias, int biasOff, UnaryFn fn, float alpha, PoolGeometry pool,
                                             float[] y, int yOff, float[] cells, int cellsOff) {
        throw new UnsupportedOperationException("this backend does not pool a convolution in cache");
    }

    /**
     * Whether the two kernels below can read the gradient that max pooling {@code pool} routes through relu to its
     * input (what {@link #maxPool2dBackwardGated} with a null gate writes) straight from the pool's cells and the
     * pooled gradient, routing each value as they read it, instead of from an array of it: the per-channel sums
     * when {@code conv} is null, convolution {@code conv}'s filter gradient otherwise. The planner then never
     * writes that gradient (false by default).
     *
     * @param conv the convolution whose filter gradient is wanted, or null for the per-channel sums
     * @param pool the pooling's geometry
     * @return true when the fused kernels apply
     */
    default boolean readsPooledGradient(ConvGeometry conv, PoolGeometry pool) {
        return false;
    }

    /**
     * The per-channel sums (a bias gradient) of the gradient max pooling routes through relu to its input, from
     * the pool's {@code cells} and the pooled gradient {@code dy}: the bits of {@link #reduce} summing that gradient
     * over its first three axes. Only where {@link #readsPooledGradient} says so.
     *
     * @param pool the pooling's geometry
     * @param cells the cells {@link #maxPool2d} recorded
     * @param cellsOff index of the first cell
     * @param dy the pooled gradient
     * @param dyOff index of its first element
     * @param out receives one sum per channel
     * @param outOff index of the first sum
     */
    default void channelSumsOfPooledGradient(PoolGeometry pool, float[] cells, int cellsOff, float[] dy, int dyOff,
                                             float[] out, int outOff) {
        throw new UnsupportedOperationException("this backend does not read a pooled gradient from its cells");
    }

    /**
     * {@link #conv2dBackwardFilter} whose dy is the gradient max pooling {@code pool} routes through relu to the
     * convolution's output, read from the pool's {@code cells} and the pooled gradient {@code pooledDy}; same bits.
     * Only where {@link #readsPooledGradient} says so.
     *
     * @param conv the convolution's geometry
     * @param x the convolution's input, NHWC
     * @param xOff index of its first element
     * @param pool the pooling's geometry
     * @param cells the cells {@link #maxPool2d} recorded
     * @param cellsOff index of the first cell
     * @param pooledDy the pooled gradient
     * @param pooledDyOff index of its first element
     * @param dw the kernel gradient, written
     * @param dwOff index of its first element
     */
    default void conv2dBackwardFilterOfPooledGradient(ConvGeometry conv, float[] x, int xOff, PoolGeometry pool,
                                                      float[] cells, int cellsOff, float[] pooledDy, int pooledDyOff,
                                                      float[] dw, int dwOff) {
        throw new UnsupportedOperationException("this backend does not read a pooled gradient from its cells");
    }

    /**
     * Gradient of conv2d with respect to its input.
     *
     * @param g the convolution's geometry
     * @param dy the output gradient, NHWC
     * @param dyOff index of its first element
     * @param w the kernel
     * @param wOff index of its first element
     * @param dx the input gradient, written
     * @param dxOff index of its first element
     */
    void conv2dBackwardInput(ConvGeometry g, float[] dy, int dyOff, float[] w, int wOff, float[] dx, int dxOff);

    /**
     * Gradient of conv2d with respect to its kernel.
     *
     * @param g the convolution's geometry
     * @param x the input, NHWC
     * @param xOff index of its first element
     * @param dy the output gradient, NHWC
     * @param dyOff index of its first element
     * @param dw the kernel gradient, written
     * @param dwOff index of its first element
     */
    void conv2dBackwardFilter(ConvGeometry g, float[] x, int xOff, float[] dy, int dyOff, float[] dw, int dwOff);

    /**
     * Max pooling, keeping no cells: {@link #maxPool2d(PoolGeometry, float[], int, float[], int, float[], int)}.
     *
     * @param g the pooling's geometry
     * @param x the input, NHWC
     * @param xOff index of its first element
     * @param y the output, NHWC
     * @param yOff index of its first element
     */
    default void maxPool2d(PoolGeometry g, float[] x, int xOff, float[] y, int yOff) {
        maxPool2d(g, x, xOff, y, yOff, null, 0);
    }

    /**
     * Max pooling (the first maximum of each window wins a tie), and, unless {@code cells} is null, which cell of
     * its window each maximum came from, for the gradient: the cell's index {@code i * poolW + j} in the window
     * (padding included), as a float, written as {@code -1 - index} when the maximum is not above zero (zero,
     * negative or NaN); {@link #NO_CELL} for a window wholly in the padding.
     *
     * @param g the pooling's geometry
     * @param x the input, NHWC
     * @param xOff index of its first element
     * @param y the output, NHWC
     * @param yOff index of its first element
     * @param cells receives the cell of each maximum, or null
     * @param cellsOff index of the first cell
     */
    void maxPool2d(PoolGeometry g, float[] x, int xOff, float[] y, int yOff, float[] cells, int cellsOff);

    /** The cell recorded for a max-pooling window that lies wholly in the padding (Keras never builds one). */
    float NO_CELL = Float.NEGATIVE_INFINITY;

    /**
     * Routes {@code dy} to the cell that held each window's maximum, as {@link #maxPool2d} recorded it in
     * {@code cells} (the first maximum, as PyTorch does); {@code dx} is fully written.
     *
     * @param g the pooling's geometry
     * @param cells the cells {@link #maxPool2d} recorded
     * @param cellsOff index of the first cell
     * @param dy the pooled gradient
     * @param dyOff index of its first element
     * @param dx the input gradient, written
     * @param dxOff index of its first element
     */
    void maxPool2dBackward(PoolGeometry g, float[] cells, int cellsOff, float[] dy, int dyOff, float[] dx, int dxOff);

    /**
     * {@link #maxPool2dBackward} followed by {@code dx = fn(gate, dx)}, an activation's gradient ({@code gate} being
     * what that {@link BinaryFn} reads as its first input, shaped like dx), in one call and with the same bits. A
     * null {@code gate} stands for the pooled input itself, with {@code fn} relu's gradient: a cell then keeps its
     * gradient where its window's maximum was above zero, which {@code cells} records, so the input is not read.
     *
     * @param g the pooling's geometry
     * @param cells the cells {@link #maxPool2d} recorded
     * @param cellsOff index of the first cell
     * @param dy the pooled gradient
     * @param dyOff index of its first element
     * @param fn the activation's gradient function
     * @param alpha its parameter
     * @param gate the activation gradient's first input, shaped like {@code dx}, or null (see above)
     * @param gateOff index of its first element
     * @param dx the input gradient, written
     * @param dxOff index of its first element
     */
    void maxPool2dBackwardGated(PoolGeometry g, float[] cells, int cellsOff, float[] dy, int dyOff, BinaryFn fn,
                                float alpha, float[] gate, int gateOff, float[] dx, int dxOff);

    /**
     * Average pooling; a window's average counts only its cells inside the image (Keras' semantics for "same").
     *
     * @param g the pooling's geometry
     * @param x the input, NHWC
     * @param xOff index of its first element
     * @param y the output, NHWC
     * @param yOff index of its first element
     */
    void avgPool2d(PoolGeometry g, float[] x, int xOff, float[] y, int yOff);

    /**
     * The backward of {@link #avgPool2d}: each window's gradient spread evenly over its cells inside the image.
     *
     * @param g the pooling's geometry
     * @param dy the pooled gradient
     * @param dyOff index of its first element
     * @param dx the input gradient, fully written
     * @param dxOff index of its first element
     */
    void avgPool2dBackward(PoolGeometry g, float[] dy, int dyOff, float[] dx, int dxOff);

    /**
     * Sets {@code n} elements to {@code value}.
     *
     * @param y the array
     * @param yOff index of the first element
     * @param n the number of elements
     * @param value the value
     */
    void fill(float[] y, int yOff, int n, float value);

    /**
     * Copies {@code n} elements.
     *
     * @param x the source array
     * @param xOff index of the first source element
     * @param y the destination array
     * @param yOff index of the first destination element
     * @param n the number of elements
     */
    void copy(float[] x, int xOff, float[] y, int yOff, int n);

    /**
     * Copies a {@code rows x cols} block between matrices with row strides {@code xStride} and {@code yStride}
     * (concatenation and slicing along an axis). The default loops over {@link #copy}.
     *
     * @param x the source array
     * @param xOff index of the block's first element in {@code x}
     * @param xStride the source's row stride
     * @param y the destination array
     * @param yOff index of the block's first element in {@code y}
     * @param yStride the destination's row stride
     * @param rows the number of rows
     * @param cols the row length
     */
    default void copy2d(float[] x, int xOff, int xStride, float[] y, int yOff, int yStride, int rows, int cols) {
        for (int r = 0; r < rows; r++) {
            copy(x, xOff + r * xStride, y, yOff + r * yStride, cols);
        }
    }

    /**
     * Transposes a {@code rows x cols} matrix into {@code cols x rows}; {@code batch} such matrices lie one after
     * the other.
     *
     * @param x the source array
     * @param xOff index of the first source element
     * @param y the destination array
     * @param yOff index of the first destination element
     * @param batch the number of matrices
     * @param rows rows of each source matrix
     * @param cols columns of each source matrix
     */
    void transpose(float[] x, int xOff, float[] y, int yOff, int batch, int rows, int cols);

    /**
     * Inverted dropout: {@code y = x * mask / (1 - rate)} with a Bernoulli mask written to {@code mask}
     * (1 kept, 0 dropped), drawn from a generator seeded by {@code seed} so a step can be replayed. A kept element is
     * the quotient {@code x / (1 - rate)}, as Keras' JAX backend computes it, not the product by its reciprocal.
     *
     * @param rate the fraction dropped, from 0 to 1 (exclusive)
     * @param seed the generator's seed
     * @param x the input array
     * @param xOff index of the first input
     * @param mask receives the mask
     * @param maskOff index of the first mask element
     * @param y the output array
     * @param yOff index of the first output
     * @param n the number of elements
     */
    void dropout(float rate, long seed, float[] x, int xOff, float[] mask, int maskOff, float[] y, int yOff, int n);

    /**
     * Independent normal draws of mean 0 and standard deviation {@code stddev}, each a pure function of
     * {@code seed} and its index (so a step can be replayed, and any thread can draw any element).
     *
     * @param stddev the standard deviation
     * @param seed the generator's seed
     * @param y receives the draws
     * @param yOff index of the first draw
     * @param n the number of draws
     */
    void randomNormal(float stddev, long seed, float[] y, int yOff, int n);

    /**
     * Transforms {@code images} images {@code (h, w, c)} in order, each by its own draw from a generator seeded with
     * {@code seed} (Keras' random augmentation layers). The default splits the images over the thread budget
     * ({@link AugmentBatch}), each image getting the draw it gets in order on one thread, so the result does not
     * depend on the number of threads.
     *
     * @param a the augmentation
     * @param seed the generator's seed
     * @param x the images
     * @param xOff index of the first element
     * @param y receives the transformed images
     * @param yOff index of the first element
     * @param images the number of images
     * @param h the height
     * @param w the width
     * @param c the channels
     */
    default void imageAugment(ImageAugment a, long seed, float[] x, int xOff, float[] y, int yOff, int images, int h,
            int w, int c) {
        AugmentBatch.forward(a, seed, x, xOff, y, yOff, images, h, w, c);
    }

    /**
     * The gradient of {@link #imageAugment} with respect to its images, for the same seed.
     *
     * @param a the augmentation
     * @param seed the generator's seed
     * @param x the images
     * @param xOff index of the first element
     * @param dy the gradient with respect to the transformed images
     * @param dyOff index of its first element
     * @param dx receives the gradient with respect to {@code x}
     * @param dxOff index of its first element
     * @param images the number of images
     * @param h the height
     * @param w the width
     * @param c the channels
     */
    default void imageAugmentBackward(ImageAugment a, long seed, float[] x, int xOff, float[] dy, int dyOff,
            float[] dx, int dxOff, int images, int h, int w, int c) {
        AugmentBatch.backward(a, seed, x, xOff, dy, dyOff, dx, dxOff, images, h, w, c);
    }

    /**
     * One fused Adam/AdamW step on {@code n} parameters, in place: {@code m = b1 m + (1-b1) g},
     * {@code v = b2 v + (1-b2) g^2}, then {@code p -= decoupledDecay * p} (AdamW; 0 for Adam) and
     * {@code p -= lrT * m / (sqrt(v) + epsHat)}, where the caller folds the bias corrections into
     * {@code lrT = lr sqrt(1-b2^t)/(1-b1^t)} and passes {@code epsHat = eps} (Keras' formulation).
     *
     * @param p the parameters, updated
     * @param pOff index of the first parameter
     * @param g the gradients
     * @param gOff index of the first gradient
     * @param m the first moments, updated
     * @param mOff index of the first moment
     * @param v the second moments, updated
     * @param vOff index of the first second moment
     * @param n the number of parameters
     * @param lrT the bias-corrected learning rate
     * @param beta1 the first moment's decay
     * @param beta2 the second moment's decay
     * @param epsHat the epsilon
     * @param decoupledDecay the fraction of {@code p} subtracted before the step (AdamW's decay for this step), 0 for
     *     Adam
     */
    void adamStep(float[] p, int pOff, float[] g, int gOff, float[] m, int mOff, float[] v, int vOff, int n,
                  float lrT, float beta1, float beta2, float epsHat, float decoupledDecay);

    /**
     * One fused SGD step in place: without momentum {@code p -= lr g}; with momentum {@code vel = mom vel - lr g}
     * then {@code p += vel} (or, for Nesterov, {@code p += mom vel - lr g}), as in Keras. {@code vel} is
     * null when {@code momentum} is 0.
     *
     * @param p the parameters, updated
     * @param pOff index of the first parameter
     * @param g the gradients
     * @param gOff index of the first gradient
     * @param vel the velocities, updated, or null
     * @param velOff index of the first velocity
     * @param n the number of parameters
     * @param lr the learning rate
     * @param momentum the momentum, 0 for none
     * @param nesterov true for Nesterov momentum
     * @param decay the decoupled weight decay of this step ({@code p -= decay p} first), 0 for none
     */
    void sgdStep(float[] p, int pOff, float[] g, int gOff, float[] vel, int velOff, int n,
                 float lr, float momentum, boolean nesterov, float decay);

    /**
     * One fused RMSprop step in place (Keras): {@code ms = rho ms + (1-rho) g^2};
     * {@code p -= lr g / sqrt(ms + eps)}.
     *
     * @param p the parameters, updated
     * @param pOff index of the first parameter
     * @param g the gradients
     * @param gOff index of the first gradient
     * @param ms the mean squares, updated
     * @param msOff index of the first mean square
     * @param n the number of parameters
     * @param lr the learning rate
     * @param rho the mean square's decay
     * @param eps the epsilon
     */
    void rmspropStep(float[] p, int pOff, float[] g, int gOff, float[] ms, int msOff, int n,
                     float lr, float rho, float eps);

    /**
     * One fused Adagrad step in place (Keras): {@code p -= decay p}, {@code acc += g^2},
     * {@code p -= lr g / sqrt(acc + eps)}.
     *
     * @param p the parameters, updated
     * @param pOff index of the first parameter
     * @param g the gradients
     * @param gOff index of the first gradient
     * @param acc the sums of squared gradients, updated
     * @param accOff index of the first sum
     * @param n the number of parameters
     * @param lr the learning rate
     * @param eps the epsilon
     * @param decay the decoupled weight decay of this step ({@code lr * weightDecay}), 0 for none
     */
    void adagradStep(float[] p, int pOff, float[] g, int gOff, float[] acc, int accOff, int n, float lr, float eps,
                     float decay);

    /**
     * One fused Adadelta step in place (Keras): {@code p -= decay p}, {@code ag = rho ag + (1-rho) g^2},
     * {@code d = -sqrt(ad + eps) g / sqrt(ag + eps)}, {@code ad = rho ad + (1-rho) d^2}, {@code p += lr d}.
     *
     * @param p the parameters, updated
     * @param pOff index of the first parameter
     * @param g the gradients
     * @param gOff index of the first gradient
     * @param ag the mean squared gradients, updated
     * @param agOff index of the first mean squared gradient
     * @param ad the mean squared updates, updated
     * @param adOff index of the first mean squared update
     * @param n the number of parameters
     * @param lr the learning rate
     * @param rho the decay of both means
     * @param eps the epsilon
     * @param decay the decoupled weight decay of this step, 0 for none
     */
    void adadeltaStep(float[] p, int pOff, float[] g, int gOff, float[] ag, int agOff, float[] ad, int adOff, int n,
                      float lr, float rho, float eps, float decay);

    /**
     * One fused Adamax step in place (Keras): {@code p -= decay p}, {@code m += (g - m)(1-beta1)},
     * {@code u = max(beta2 u, |g|)}, {@code p -= lrT m / (u + eps)} with {@code lrT = lr / (1 - beta1^t)}.
     *
     * @param p the parameters, updated
     * @param pOff index of the first parameter
     * @param g the gradients
     * @param gOff index of the first gradient
     * @param m the first moments, updated
     * @param mOff index of the first moment
     * @param u the infinity norms, updated
     * @param uOff index of the first norm
     * @param n the number of parameters
     * @param lrT the bias-corrected learning rate
     * @param beta1 the first moment's decay
     * @param beta2 the norm's decay
     * @param eps the epsilon
     * @param decay the decoupled weight decay of this step, 0 for none
     */
    void adamaxStep(float[] p, int pOff, float[] g, int gOff, float[] m, int mOff, float[] u, int uOff, int n,
                    float lrT, float beta1, float beta2, float eps, float decay);

    /**
     * One fused Nadam step in place (Keras): {@code p -= decay p}, {@code m += (g - m)(1-beta1)},
     * {@code v += (g^2 - v)(1-beta2)}, {@code p -= (mRate m + gRate g) / (sqrt(v vCorrection) + eps)}, where the
     * caller folds the momentum schedule into {@code mRate} and {@code gRate} ({@link dev.brisk.ops.NadamUpdate}).
     *
     * @param p the parameters, updated
     * @param pOff index of the first parameter
     * @param g the gradients
     * @param gOff index of the first gradient
     * @param m the first moments, updated
     * @param mOff index of the first moment
     * @param v the second moments, updated
     * @param vOff index of the first second moment
     * @param n the number of parameters
     * @param mRate the first moment's rate
     * @param gRate the gradient's rate
     * @param vCorrection the second moment's bias correction {@code 1 / (1 - beta2^t)}
     * @param beta1 the first moment's decay
     * @param beta2 the second moment's decay
     * @param eps the epsilon
     * @param decay the decoupled weight decay of this step, 0 for none
     */
    void nadamStep(float[] p, int pOff, float[] g, int gOff, float[] m, int mOff, float[] v, int vOff, int n,
                   float mRate, float gRate, float vCorrection, float beta1, float beta2, float eps, float decay);

    /**
     * One fused Lion step in place (Keras): {@code p -= decay p}, {@code p -= lr sign(beta1 m + (1-beta1) g)},
     * {@code m = beta2 m + (1-beta2) g}.
     *
     * @param p the parameters, updated
     * @param pOff index of the first parameter
     * @param g the gradients
     * @param gOff index of the first gradient
     * @param m the momenta, updated
     * @param mOff index of the first momentum
     * @param n the number of parameters
     * @param lr the learning rate
     * @param beta1 the momentum's weight in the update's sign
     * @param beta2 the momentum's decay
     * @param decay the decoupled weight decay of this step, 0 for none
     */
    void lionStep(float[] p, int pOff, float[] g, int gOff, float[] m, int mOff, int n, float lr, float beta1,
                  float beta2, float decay);

    /**
     * One fused Adam step with AMSGrad in place (Keras): as {@link #adamStep}, with {@code vHat = max(vHat, v)} in
     * the denominator in place of {@code v}.
     *
     * @param p the parameters, updated
     * @param pOff index of the first parameter
     * @param g the gradients
     * @param gOff index of the first gradient
     * @param m the first moments, updated
     * @param mOff index of the first moment
     * @param v the second moments, updated
     * @param vOff index of the first second moment
     * @param vHat the largest second moments so far, updated
     * @param vHatOff index of the first of them
     * @param n the number of parameters
     * @param lrT the bias-corrected learning rate
     * @param beta1 the first moment's decay
     * @param beta2 the second moment's decay
     * @param epsHat the epsilon
     * @param decay the decoupled weight decay of this step, 0 for none
     */
    void amsgradStep(float[] p, int pOff, float[] g, int gOff, float[] m, int mOff, float[] v, int vOff, float[] vHat,
                     int vHatOff, int n, float lrT, float beta1, float beta2, float epsHat, float decay);

    /**
     * One fused FTRL-proximal step in place (Keras' {@code Ftrl}): {@code p -= decay p};
     * {@code acc' = acc + g^2}; {@code lin += g + shrinkage2 p - (acc'^(-power) - acc^(-power)) / lr * p};
     * {@code p = (clip(lin, -l1, l1) - lin) / (acc'^(-power) / lr + twoL2)}; {@code acc = acc'}.
     *
     * @param p the parameters, updated
     * @param pOff index of the first parameter
     * @param g the gradients
     * @param gOff index of the first gradient
     * @param acc the accumulators, updated
     * @param accOff index of the first accumulator
     * @param lin the linear terms, updated
     * @param linOff index of the first linear term
     * @param n the number of parameters
     * @param lr the learning rate
     * @param power Keras' {@code learning_rate_power}, at most 0
     * @param l1 the L1 strength
     * @param twoL2 twice the step's L2 strength ({@code 2 (l2 + beta / (2 lr))})
     * @param shrinkage2 twice the L2 shrinkage strength
     * @param decay the decoupled weight decay of this step, 0 for none
     */
    void ftrlStep(float[] p, int pOff, float[] g, int gOff, float[] acc, int accOff, float[] lin, int linOff, int n,
                  float lr, float power, float l1, float twoL2, float shrinkage2, float decay);

    /**
     * One fused RMSprop step with momentum and/or centring in place (Keras): {@code p -= decay p},
     * {@code ms = rho ms + (1-rho) g^2}; centred: {@code mg = rho mg + (1-rho) g} and
     * {@code den = ms - mg^2 + eps}, else {@code den = ms + eps}; {@code inc = lr g / sqrt(den)}; with momentum
     * {@code mom = momentum mom + inc; p -= mom}, else {@code p -= inc}.
     *
     * @param p the parameters, updated
     * @param pOff index of the first parameter
     * @param g the gradients
     * @param gOff index of the first gradient
     * @param ms the mean squares, updated
     * @param msOff index of the first mean square
     * @param mom the momenta, updated, or null when {@code momentum} is 0
     * @param momOff index of the first momentum
     * @param mg the mean gradients, updated, or null when not centred
     * @param mgOff index of the first mean gradient
     * @param n the number of parameters
     * @param lr the learning rate
     * @param rho the decay of the mean square and mean gradient
     * @param momentum the momentum, 0 for none
     * @param eps the epsilon
     * @param decay the decoupled weight decay of this step, 0 for none
     */
    void rmspropFullStep(float[] p, int pOff, float[] g, int gOff, float[] ms, int msOff, float[] mom, int momOff,
                         float[] mg, int mgOff, int n, float lr, float rho, float momentum, float eps, float decay);

    /**
     * {@code batch} dense products {@code C[i] = op(A[i]) op(B[i])}, one after the other in each array: A's entries
     * are {@code m x k} ({@code k x m} stored when {@code transA}), B's {@code k x n} ({@code n x k} when
     * {@code transB}), C's {@code m x n}, rows dense. A batch stride of 0 uses the same matrix for every entry. The
     * default calls {@link #gemm} once per entry.
     *
     * @param transA whether each A is stored transposed
     * @param transB whether each B is stored transposed
     * @param batch the number of products
     * @param m rows of each C
     * @param n columns of each C
     * @param k the inner dimension
     * @param a A's array
     * @param aOff index of the first A's first element
     * @param aStride elements from one A to the next, or 0
     * @param b B's array
     * @param bOff index of the first B's first element
     * @param bStride elements from one B to the next, or 0
     * @param c C's array, {@code batch m n} elements written
     * @param cOff index of the first C's first element
     */
    default void batchedGemm(boolean transA, boolean transB, int batch, int m, int n, int k, float[] a, int aOff,
                             int aStride, float[] b, int bOff, int bStride, float[] c, int cOff) {
        int lda = transA ? m : k;
        int ldb = transB ? k : n;
        for (int i = 0; i < batch; i++) {
            gemm(transA, transB, m, n, k, a, aOff + i * aStride, lda, b, bOff + i * bStride, ldb, c,
                    cOff + i * m * n, n, false);
        }
    }

    /**
     * Reorders the axes of a dense tensor: output axis {@code i} is input axis {@code perm[i]}.
     *
     * @param x the input array
     * @param xOff index of the first input
     * @param dims the input's shape
     * @param perm a permutation of the axes
     * @param y the output array, written densely in the permuted shape
     * @param yOff index of the first output
     */
    void permute(float[] x, int xOff, int[] dims, int[] perm, float[] y, int yOff);

    /**
     * Softmax (or log-softmax) along an axis that is not the last: {@code x} is {@code [outer, length, inner]} and
     * each of the {@code outer * inner} columns of {@code length} elements, {@code inner} apart, is normalized.
     *
     * @param log true for log-softmax
     * @param x the input array
     * @param xOff index of the first input
     * @param y the output array
     * @param yOff index of the first output
     * @param outer the elements before the axis
     * @param length the length of the axis
     * @param inner the elements after the axis
     */
    void softmaxAlongAxis(boolean log, float[] x, int xOff, float[] y, int yOff, int outer, int length, int inner);

    /**
     * The backward of {@link #softmaxAlongAxis}, as {@link #softmaxBackward} is of {@link #softmax}.
     *
     * @param log true for log-softmax
     * @param y the forward output
     * @param yOff index of its first element
     * @param dy the upstream gradient
     * @param dyOff index of its first element
     * @param dx the input gradient, written
     * @param dxOff index of its first element
     * @param outer the elements before the axis
     * @param length the length of the axis
     * @param inner the elements after the axis
     */
    void softmaxAlongAxisBackward(boolean log, float[] y, int yOff, float[] dy, int dyOff, float[] dx, int dxOff,
                                  int outer, int length, int inner);

    /**
     * Layer normalization of each row of {@code x[rows, cols]}:
     * {@code y = (x - mean) / sqrt(variance + epsilon) * gamma + beta} with the row's mean and biased variance,
     * summed in double (the variance about the mean, in a second pass) and each element computed in double.
     *
     * @param epsilon added to the variance
     * @param x the input array
     * @param xOff index of the first input
     * @param gamma the scale array, {@code cols} long
     * @param gammaOff index of the first scale
     * @param beta the offset array, {@code cols} long
     * @param betaOff index of the first offset
     * @param y the output array
     * @param yOff index of the first output
     * @param rows the number of rows
     * @param cols the row length
     */
    void layerNorm(float epsilon, float[] x, int xOff, float[] gamma, int gammaOff, float[] beta, int betaOff,
                   float[] y, int yOff, int rows, int cols);

    /**
     * The gradients of a layer normalization's beta (column sums of {@code dy}) into {@code out[0, cols)} and gamma
     * (column sums of {@code dy} times the normalized {@code x}) into {@code out[cols, 2 cols)}, in double, over
     * fixed blocks of rows added in order (the same bits at any thread count).
     *
     * @param epsilon added to the variance
     * @param dy the output gradient array
     * @param dyOff index of the first output gradient
     * @param x the input array of the forward pass
     * @param xOff index of the first input
     * @param out the output array, {@code 2 cols} long
     * @param outOff index of the first output
     * @param rows the number of rows
     * @param cols the row length
     */
    void layerNormParamGrad(float epsilon, float[] dy, int dyOff, float[] x, int xOff, float[] out, int outOff,
                            int rows, int cols);

    /**
     * The gradient of a layer normalization's input:
     * {@code dx = rstd (g - mean(g) - xhat mean(g xhat))} per row, with {@code g = dy gamma}, {@code xhat} the
     * normalized row and {@code rstd = 1 / sqrt(variance + epsilon)}.
     *
     * @param epsilon added to the variance
     * @param dy the output gradient array
     * @param dyOff index of the first output gradient
     * @param x the input array of the forward pass
     * @param xOff index of the first input
     * @param gamma the scale array
     * @param gammaOff index of the first scale
     * @param dx the input gradient array, written
     * @param dxOff index of the first input gradient
     * @param rows the number of rows
     * @param cols the row length
     */
    void layerNormGrad(float epsilon, float[] dy, int dyOff, float[] x, int xOff, float[] gamma, int gammaOff,
                       float[] dx, int dxOff, int rows, int cols);

    /**
     * Embedding lookup: {@code out[p, :] = table[ids[p], :]} for each of {@code count} ids, stored as raw INT32 bits.
     * Rows are copied, so the output has the table's bits.
     *
     * @param table the {@code [vocab, dim]} table
     * @param tableOff index of its first element
     * @param vocab the number of table rows
     * @param dim the row length
     * @param ids the ids, INT32 bits in a float array
     * @param idsOff index of the first id
     * @param count the number of ids
     * @param out the {@code [count, dim]} output
     * @param outOff index of its first element
     * @throws IllegalArgumentException if an id is outside {@code [0, vocab)}; the message names the id, its
     *     position and the vocabulary size
     */
    void embeddingLookup(float[] table, int tableOff, int vocab, int dim, float[] ids, int idsOff, int count,
                         float[] out, int outOff);

    /**
     * The table gradient of {@link #embeddingLookup}: {@code dTable = 0}, then {@code dTable[ids[p], :] += dy[p, :]}
     * for {@code p} in increasing order, so every element is the same sum in the same order on any backend and
     * thread count.
     *
     * @param dy the {@code [count, dim]} upstream gradient
     * @param dyOff index of its first element
     * @param ids the ids, INT32 bits in a float array
     * @param idsOff index of the first id
     * @param count the number of ids
     * @param dTable the {@code [vocab, dim]} gradient, overwritten
     * @param dTableOff index of its first element
     * @param vocab the number of table rows
     * @param dim the row length
     * @throws IllegalArgumentException if an id is outside {@code [0, vocab)}
     */
    void embeddingGrad(float[] dy, int dyOff, float[] ids, int idsOff, int count, float[] dTable, int dTableOff,
                       int vocab, int dim);

    /**
     * {@code out[i] = ids[i] != 0 ? 1 : 0}, reading INT32 bits: the padding mask of {@code Embedding(maskZero)}.
     *
     * @param ids the ids, INT32 bits in a float array
     * @param idsOff index of the first id
     * @param out the float mask
     * @param outOff index of its first element
     * @param n the number of ids
     */
    void nonzeroMask(float[] ids, int idsOff, float[] out, int outOff, int n);

    /**
     * A recurrent layer over a whole sequence ({@link RecurrentGeometry}): the input's product with the kernel for all
     * steps in one gemm, then per step one gemm of the previous hidden state with the recurrent kernel and one pass
     * over the gates. Keeps in {@code state} what {@link #recurrentBackward} reads. With a mask, a masked step
     * carries each row's state through unchanged. The default composes {@link #gemm} with scalar passes over the
     * gates.
     *
     * @param g the geometry
     * @param x the input {@code [batch, steps, inputs]}
     * @param xOff index of its first element
     * @param w the kernel {@code [inputs, gates units]}
     * @param wOff index of its first element
     * @param u the recurrent kernel {@code [units, gates units]}
     * @param uOff index of its first element
     * @param bias the bias ({@link RecurrentGeometry#biasSize} floats)
     * @param biasOff index of its first element
     * @param mask the mask {@code [batch, steps]}, nonzero for real steps (read only when {@link RecurrentGeometry#masked})
     * @param maskOff index of its first element
     * @param init the initial state {@code [batch, states units]} (read only when
     *     {@link RecurrentGeometry#initialState})
     * @param initOff index of its first element
     * @param state receives the kept state ({@link RecurrentGeometry#stateSize} floats)
     * @param stateOff index of its first element
     * @param y receives the output, {@link RecurrentGeometry#outputRowWidth} floats per row: every step's state
     *     {@code [steps, units]} or the last one, then the final states when they are returned
     * @param yOff index of its first element
     */
    default void recurrentForward(RecurrentGeometry g, float[] x, int xOff, float[] w, int wOff, float[] u, int uOff,
                                  float[] bias, int biasOff, float[] mask, int maskOff, float[] init, int initOff,
                                  float[] state, int stateOff, float[] y, int yOff) {
        RecurrentLoops.forward(this, ScalarRecurrentGates.INSTANCE, g, x, xOff, w, wOff, u, uOff, bias, biasOff,
                mask, maskOff, init, initOff, state, stateOff, y, yOff);
    }

    /**
     * Backward through time of {@link #recurrentForward}: per step (last first) one pass for the gates'
     * gradients and one gemm for the previous state's, then one gemm each for the kernel's, the recurrent kernel's
     * and the bias's gradients over all steps, and one for the input's. A masked step's gates get no gradient and
     * its state's gradient passes to the previous step unchanged.
     *
     * @param g the geometry
     * @param dy the upstream gradient, shaped like the forward output
     * @param dyOff index of its first element
     * @param w the kernel
     * @param wOff index of its first element
     * @param u the recurrent kernel
     * @param uOff index of its first element
     * @param mask the forward call's mask (read only when {@link RecurrentGeometry#masked})
     * @param maskOff index of its first element
     * @param state the state the forward call kept
     * @param stateOff index of its first element
     * @param scratch workspace ({@link RecurrentGeometry#scratchSize} floats)
     * @param scratchOff index of its first element
     * @param out receives the packed gradients ({@link RecurrentGeometry#gradientSize})
     * @param outOff index of its first element
     * @param inputGradient whether the input's gradient is computed (first in {@code out})
     */
    default void recurrentBackward(RecurrentGeometry g, float[] dy, int dyOff, float[] w, int wOff, float[] u,
                                   int uOff, float[] mask, int maskOff, float[] state, int stateOff,
                                   float[] scratch, int scratchOff, float[] out, int outOff, boolean inputGradient) {
        RecurrentLoops.backward(this, ScalarRecurrentGates.INSTANCE, g, dy, dyOff, w, wOff, u, uOff, mask, maskOff,
                state, stateOff, scratch, scratchOff, out, outOff, inputGradient);
    }

    /**
     * Scaled-dot-product attention ({@link dev.brisk.ops.OpType#ATTENTION}): per batch entry {@code b} and head
     * {@code h}, {@code out_bh = softmax(q_bh k_bh^T + mask_b) v_bh}, where a causal geometry leaves keys after each
     * query row out (probability 0), and each row's score maximum and reciprocal sum of exponentials are written to
     * {@code stats}, from which the backward pass recomputes the probabilities.
     * Each (batch entry, head) pair is computed by one thread in a fixed order, so the result has the same bits on
     * any number of threads.
     *
     * @param g the sizes, layouts and causality
     * @param q the queries {@code [B, T, H, D]}
     * @param qOff index of their first element
     * @param k the keys {@code [B, S, H, D]}
     * @param kOff index of their first element
     * @param v the values {@code [B, S, H, Dv]}
     * @param vOff index of their first element
     * @param mask the additive mask {@code [B, maskRows, S]}, or null without one
     * @param maskOff index of its first element
     * @param out receives the output {@code [B, T, H, Dv]}
     * @param outOff index of its first element
     * @param stats receives each row's score maximum and reciprocal sum of exponentials {@code [B, H, T, 2]}
     * @param statsOff index of its first element
     */
    void attention(AttentionGeometry g, float[] q, int qOff, float[] k, int kOff, float[] v, int vOff, float[] mask,
                   int maskOff, float[] out, int outOff, float[] stats, int statsOff);

    /**
     * The backward of {@link #attention}: recomputes each row's probabilities {@code P} from q, k, the mask and the
     * saved row statistics, then {@code dV = P^T dO}, {@code dP = dO V^T}, {@code dS = P (dP - rowsum(dO out))},
     * {@code dQ = dS K} and {@code dK = dS^T Q} per batch entry and head, each pair by one thread (no sums across
     * threads), so the result has the same bits on any number of threads.
     *
     * @param g the sizes, layouts and causality
     * @param q the queries
     * @param qOff index of their first element
     * @param k the keys
     * @param kOff index of their first element
     * @param v the values
     * @param vOff index of their first element
     * @param mask the additive mask, or null without one
     * @param maskOff index of its first element
     * @param out the forward output
     * @param outOff index of its first element
     * @param stats the forward call's row statistics
     * @param statsOff index of its first element
     * @param dOut the upstream gradient, shaped like the output
     * @param dOutOff index of its first element
     * @param grads receives the gradients of q, then of k ({@link AttentionGeometry#querySize} on), then of v
     *     ({@code querySize + keySize} on)
     * @param gradsOff index of the first element of q's gradient
     */
    void attentionBackward(AttentionGeometry g, float[] q, int qOff, float[] k, int kOff, float[] v, int vOff,
                           float[] mask, int maskOff, float[] out, int outOff, float[] stats, int statsOff, float[] dOut,
                           int dOutOff, float[] grads, int gradsOff);
}

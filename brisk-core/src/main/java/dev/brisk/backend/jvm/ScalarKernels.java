package dev.brisk.backend.jvm;

import dev.brisk.backend.ElementwiseChain;
import dev.brisk.backend.Kernels;
import dev.brisk.ops.AttentionGeometry;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.PoolGeometry;
import dev.brisk.ops.ReduceFn;
import dev.brisk.ops.UnaryFn;
import dev.brisk.parallel.Parallel;
import java.util.Arrays;
import java.util.List;

/**
 * The reference backend ("jvm-scalar"): plain loops written to be obviously right, which the vector backend is
 * tested against. Only gemm, the convolutions and dropout are split across threads, so that this path stays
 * usable when the Vector API is missing. Sums that are not on a hot path accumulate in double.
 */
public final class ScalarKernels implements Kernels {
    /** About this many multiply-adds per parallel chunk. */
    private static final int GRAIN_MACS = 1 << 16;
    /** Elements per parallel chunk of dropout (a hash per element). */
    private static final int DROPOUT_GRAIN = 1 << 14;
    private static final double SQRT_HALF = Math.sqrt(0.5);
    private static final double INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);

    @Override
    public String name() {
        return "jvm-scalar";
    }

    // ---------------------------------------------------------------- gemm

    @Override
    public void gemm(boolean transA, boolean transB, int m, int n, int k,
                     float[] a, int aOff, int lda, float[] b, int bOff, int ldb, float[] c, int cOff, int ldc,
                     boolean accumulate) {
        int grain = Math.max(1, GRAIN_MACS / Math.max(1, n * Math.max(1, k)));
        if (Split.serial(m, grain)) {
            gemmRows(transA, transB, n, k, a, aOff, lda, b, bOff, ldb, c, cOff, ldc, accumulate, 0, m);
        } else {
            Parallel.forRange(m, grain, (i0, i1) ->
                    gemmRows(transA, transB, n, k, a, aOff, lda, b, bOff, ldb, c, cOff, ldc, accumulate, i0, i1));
        }
    }

    @Override
    public void gemmBiasActivation(boolean transA, boolean transB, int m, int n, int k, float[] a, int aOff, int lda,
                                   float[] b, int bOff, int ldb, float[] bias, int biasOff, UnaryFn fn, float alpha,
                                   float[] c, int cOff, int ldc) {
        gemm(transA, transB, m, n, k, a, aOff, lda, b, bOff, ldb, c, cOff, ldc, false);
        biasActivation(c, cOff, ldc, m, n, bias, biasOff, fn, alpha);
    }

    @Override
    public void gemmBiasActivationKeepingInput(boolean transA, boolean transB, int m, int n, int k, float[] a,
                                               int aOff, int lda, float[] b, int bOff, int ldb, float[] bias,
                                               int biasOff, UnaryFn fn, float alpha, float[] c, int cOff, float[] y,
                                               int yOff, int ldc) {
        gemmBiasActivation(transA, transB, m, n, k, a, aOff, lda, b, bOff, ldb, bias, biasOff, null, 0f, c, cOff,
                ldc);
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                y[yOff + i * ldc + j] = unary(fn, alpha, c[cOff + i * ldc + j]);
            }
        }
    }

    @Override
    public void gemmBinary(boolean transA, boolean transB, int m, int n, int k, float[] a, int aOff, int lda,
                           float[] b, int bOff, int ldb, float[] bias, int biasOff, UnaryFn activation,
                           float activationAlpha, BinaryFn fn, float alpha, float[] x, int xOff,
                           boolean productFirst, float[] c, int cOff, int ldc) {
        gemmBiasActivation(transA, transB, m, n, k, a, aOff, lda, b, bOff, ldb, bias, biasOff, activation,
                activationAlpha, c, cOff, ldc);
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                int at = cOff + i * ldc + j;
                float o = x[xOff + i * ldc + j];
                c[at] = productFirst ? binary(fn, alpha, c[at], o) : binary(fn, alpha, o, c[at]);
            }
        }
    }

    /** {@code c[i][j] = fn(c[i][j] + bias[j])}, the reference of the fused epilogues. */
    private static void biasActivation(float[] c, int cOff, int ldc, int rows, int cols, float[] bias, int biasOff,
                                       UnaryFn fn, float alpha) {
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                int at = cOff + i * ldc + j;
                float v = bias == null ? c[at] : binary(BinaryFn.ADD, 0f, c[at], bias[biasOff + j]);
                c[at] = fn == null ? v : unary(fn, alpha, v);
            }
        }
    }

    /** Rows {@code [i0, i1)} of C. */
    private static void gemmRows(boolean transA, boolean transB, int n, int k, float[] a, int aOff, int lda,
                                 float[] b, int bOff, int ldb, float[] c, int cOff, int ldc, boolean accumulate,
                                 int i0, int i1) {
        for (int i = i0; i < i1; i++) {
            int ci = cOff + i * ldc;
            if (!accumulate) {
                Arrays.fill(c, ci, ci + n, 0f);
            }
            if (transB) {
                // op(B)[p][j] = b[j * ldb + p]: one dot product per element.
                for (int j = 0; j < n; j++) {
                    float s = 0;
                    for (int p = 0; p < k; p++) {
                        s += elem(a, aOff, lda, transA, i, p) * b[bOff + j * ldb + p];
                    }
                    c[ci + j] += s;
                }
            } else {
                // Row i of C += A[i][p] * row p of B (contiguous inner loop).
                for (int p = 0; p < k; p++) {
                    float aip = elem(a, aOff, lda, transA, i, p);
                    int bp = bOff + p * ldb;
                    for (int j = 0; j < n; j++) {
                        c[ci + j] += aip * b[bp + j];
                    }
                }
            }
        }
    }

    private static float elem(float[] x, int off, int ld, boolean trans, int row, int col) {
        return trans ? x[off + col * ld + row] : x[off + row * ld + col];
    }

    // ---------------------------------------------------------------- elementwise

    @Override
    public void unary(UnaryFn fn, float alpha, float[] x, int xOff, float[] y, int yOff, int n) {
        for (int i = 0; i < n; i++) {
            y[yOff + i] = unary(fn, alpha, x[xOff + i]);
        }
    }

    @Override
    public void binaryActivation(BinaryFn fn, float alpha, float[] a, int aOff, float[] b, int bOff,
                                 UnaryFn activation, float activationAlpha, float[] out, int outOff, int n) {
        for (int i = 0; i < n; i++) {
            out[outOff + i] = unary(activation, activationAlpha, binary(fn, alpha, a[aOff + i], b[bOff + i]));
        }
    }

    @Override
    public void elementwiseChain(ElementwiseChain chain, float[][] inputs, int[] inputOffsets, float[] out,
                                 int outOff) {
        // Element by element: each step's value is a local, exactly the float the separate kernels store.
        List<ElementwiseChain.Step> steps = chain.steps();
        int cols = chain.rowLength();
        for (int i = 0; i < chain.size(); i++) {
            float v = 0f;
            for (int s = 0; s < steps.size(); s++) {
                ElementwiseChain.Step step = steps.get(s);
                float a = chainOperand(chain, step.left(), v, inputs, inputOffsets, i, cols);
                v = step.unary() != null ? unary(step.unary(), step.alpha(), a)
                        : binary(step.binary(), step.alpha(), a,
                                chainOperand(chain, step.right(), v, inputs, inputOffsets, i, cols));
            }
            out[outOff + i] = v;
        }
    }

    /** Operand {@code code} of an elementwise chain's step at element {@code i}: the previous value or an input's. */
    private static float chainOperand(ElementwiseChain chain, int code, float previous, float[][] inputs,
                                      int[] inputOffsets, int i, int cols) {
        if (code == ElementwiseChain.PREVIOUS) {
            return previous;
        }
        int at = switch (chain.inputs().get(code)) {
            case FULL -> i;
            case ROW -> i % cols;
            case SCALAR -> 0;
        };
        return inputs[code][inputOffsets[code] + at];
    }

    /** The definition of each {@link UnaryFn}. */
    static float unary(UnaryFn fn, float alpha, float x) {
        return switch (fn) {
            case NEG -> -x;
            case EXP -> (float) Math.exp(x);
            case LOG -> (float) Math.log(x);
            case SQRT -> (float) Math.sqrt(x);
            case RSQRT -> (float) (1 / Math.sqrt(x));
            case SQUARE -> x * x;
            case ABS -> Math.abs(x);
            case RECIPROCAL -> 1 / x;
            case RELU -> Math.max(x, 0f);
            case SIGMOID -> (float) (1 / (1 + Math.exp(-x)));
            case TANH -> (float) Math.tanh(x);
            case GELU -> (float) (x * normalCdf(x));
            case LEAKY_RELU -> x > 0 ? x : alpha * x;
            case SCALE -> x * alpha;
            case ADD_SCALAR -> x + alpha;
            case CLIP_PROB -> Math.min(Math.max(x, alpha), 1 - alpha);
            case NON_FINITE -> Float.isFinite(x) ? 0f : 1f;
        };
    }

    @Override
    public void binary(BinaryFn fn, float alpha, float[] a, int aOff, int[] aStrides, float[] b, int bOff,
                       int[] bStrides, float[] out, int outOff, int[] outShape) {
        int n = 1;
        for (int d : outShape) {
            n *= d;
        }
        for (int o = 0; o < n; o++) {
            // Decode the output index axis by axis, from the last, and step each input by its strides.
            int ai = aOff;
            int bi = bOff;
            int rest = o;
            for (int d = outShape.length - 1; d >= 0; d--) {
                int idx = rest % outShape[d];
                rest /= outShape[d];
                ai += idx * aStrides[d];
                bi += idx * bStrides[d];
            }
            out[outOff + o] = binary(fn, alpha, a[ai], b[bi]);
        }
    }

    /** The definition of each {@link BinaryFn}. */
    static float binary(BinaryFn fn, float alpha, float a, float b) {
        return switch (fn) {
            case ADD -> a + b;
            case SUB -> a - b;
            case MUL -> a * b;
            case DIV -> a / b;
            case MAX -> Math.max(a, b);
            case MIN -> Math.min(a, b);
            case GREATER -> a > b ? 1f : 0f;
            case RELU_GRAD -> a > 0 ? b : 0f;
            case LEAKY_RELU_GRAD -> a > 0 ? b : alpha * b;
            case SIGMOID_GRAD -> b * a * (1 - a);
            case TANH_GRAD -> b * (1 - a * a);
            case GELU_GRAD -> (float) (b * (normalCdf(a) + a * INV_SQRT_2PI * Math.exp(-0.5 * a * a)));
            case CLIP_PROB_GRAD -> a >= alpha && a <= 1 - alpha ? b : 0f;
        };
    }

    /** Phi(x), the standard normal CDF, via the exact erf. */
    private static double normalCdf(double x) {
        return 0.5 * (1 + Erf.erf(x * SQRT_HALF));
    }

    // ---------------------------------------------------------------- reductions

    @Override
    public void reduce(ReduceFn fn, float[] x, int xOff, int[] shape, boolean[] reduceAxes, float[] out,
                       int outOff) {
        int outSize = 1;
        int reducedSize = 1;
        for (int d = 0; d < shape.length; d++) {
            if (reduceAxes[d]) {
                reducedSize *= shape[d];
            } else {
                outSize *= shape[d];
            }
        }
        for (int o = 0; o < outSize; o++) {
            double acc = fn == ReduceFn.SUM ? 0 : Double.NEGATIVE_INFINITY;
            for (int r = 0; r < reducedSize; r++) {
                // Kept axes take their digits from o, reduced axes from r (both row-major).
                int offset = 0;
                int stride = 1;
                int restO = o;
                int restR = r;
                for (int d = shape.length - 1; d >= 0; d--) {
                    int idx;
                    if (reduceAxes[d]) {
                        idx = restR % shape[d];
                        restR /= shape[d];
                    } else {
                        idx = restO % shape[d];
                        restO /= shape[d];
                    }
                    offset += idx * stride;
                    stride *= shape[d];
                }
                float v = x[xOff + offset];
                acc = fn == ReduceFn.SUM ? acc + v : Math.max(acc, v);
            }
            out[outOff + o] = (float) acc;
        }
    }

    // ---------------------------------------------------------------- batch normalization

    @Override
    public void batchNormStatistics(float[] x, int xOff, int rows, int channels, float[] out, int outOff) {
        BatchNormLoops.statistics(false, false, x, xOff, rows, channels, out, outOff);
    }

    @Override
    public void batchNorm(float epsilon, float[] x, int xOff, float[] stats, int statsOff, float[] gamma,
                          int gammaOff, float[] beta, int betaOff, UnaryFn activation, float alpha, float[] y,
                          int yOff, int rows, int channels) {
        BatchNormLoops.normalize(false, false, epsilon, x, xOff, stats, statsOff, gamma, gammaOff, beta, betaOff,
                activation, alpha, y, yOff, rows, channels);
    }

    @Override
    public void batchNormBinary(float epsilon, float[] x, int xOff, float[] stats, int statsOff, float[] gamma,
                                int gammaOff, float[] beta, int betaOff, BinaryFn fn, float fnAlpha, float[] other,
                                int otherOff, boolean normalizedFirst, UnaryFn activation, float alpha, float[] y,
                                int yOff, int rows, int channels) {
        BatchNormLoops.normalize(false, false, epsilon, x, xOff, stats, statsOff, gamma, gammaOff, beta, betaOff, fn,
                fnAlpha, other, otherOff, normalizedFirst, activation, alpha, y, yOff, rows, channels);
    }

    @Override
    public void batchNormParamGrad(float epsilon, float[] dy, int dyOff, float[] gate, int gateOff, float[] x,
                                   int xOff, float[] stats, int statsOff, float[] out, int outOff, int rows,
                                   int channels) {
        BatchNormLoops.paramGrad(false, false, epsilon, dy, dyOff, gate, gateOff, x, xOff, stats, statsOff, null, 0, null,
                0, out, outOff, rows, channels);
    }

    @Override
    public void batchNormGrad(float epsilon, boolean training, float[] dy, int dyOff, float[] gate, int gateOff,
                              float[] x, int xOff, float[] stats, int statsOff, float[] gamma, int gammaOff,
                              float[] sums, int sumsOff, float[] dx, int dxOff, int rows, int channels) {
        BatchNormLoops.inputGrad(false, false, epsilon, training, dy, dyOff, gate, gateOff, x, xOff, stats, statsOff,
                gamma, gammaOff, null, 0, sums, sumsOff, dx, dxOff, rows, channels);
    }

    @Override
    public void batchNormParamGradUnderRelu(float epsilon, float[] dy, int dyOff, float[] x, int xOff, float[] stats,
                                            int statsOff, float[] gamma, int gammaOff, float[] beta, int betaOff,
                                            float[] out, int outOff, int rows, int channels) {
        BatchNormLoops.paramGrad(false, false, epsilon, dy, dyOff, null, 0, x, xOff, stats, statsOff, gamma, gammaOff, beta,
                betaOff, out, outOff, rows, channels);
    }

    @Override
    public void batchNormGradUnderRelu(float epsilon, boolean training, float[] dy, int dyOff, float[] x, int xOff,
                                       float[] stats, int statsOff, float[] gamma, int gammaOff, float[] beta,
                                       int betaOff, float[] sums, int sumsOff, float[] dx, int dxOff, int rows,
                                       int channels) {
        BatchNormLoops.inputGrad(false, false, epsilon, training, dy, dyOff, null, 0, x, xOff, stats, statsOff, gamma,
                gammaOff, beta, betaOff, sums, sumsOff, dx, dxOff, rows, channels);
    }

    // ---------------------------------------------------------------- softmax and class indexes

    @Override
    public void softmax(boolean log, float[] x, int xOff, float[] y, int yOff, int rows, int cols) {
        for (int r = 0; r < rows; r++) {
            int xi = xOff + r * cols;
            int yi = yOff + r * cols;
            float max = rowMax(x, xi, cols);
            double sum = expSum(x, xi, cols, max);
            for (int j = 0; j < cols; j++) {
                y[yi + j] = log
                        ? (float) (x[xi + j] - max - Math.log(sum))
                        : (float) (Math.exp(x[xi + j] - max) / sum);
            }
        }
    }

    private static float rowMax(float[] x, int xi, int cols) {
        float max = Float.NEGATIVE_INFINITY;
        for (int j = 0; j < cols; j++) {
            max = Math.max(max, x[xi + j]);
        }
        return max;
    }

    /** {@code sum exp(x - max)} over one row, in double. */
    private static double expSum(float[] x, int xi, int cols, float max) {
        double sum = 0;
        for (int j = 0; j < cols; j++) {
            sum += Math.exp(x[xi + j] - max);
        }
        return sum;
    }

    @Override
    public void softmaxBackward(boolean log, float[] y, int yOff, float[] dy, int dyOff, float[] dx, int dxOff,
                                int rows, int cols) {
        for (int r = 0; r < rows; r++) {
            int yi = yOff + r * cols;
            int gi = dyOff + r * cols;
            int xi = dxOff + r * cols;
            double s = 0;
            for (int j = 0; j < cols; j++) {
                s += log ? dy[gi + j] : (double) dy[gi + j] * y[yi + j];
            }
            for (int j = 0; j < cols; j++) {
                dx[xi + j] = log
                        ? (float) (dy[gi + j] - Math.exp(y[yi + j]) * s)
                        : (float) (y[yi + j] * (dy[gi + j] - s));
            }
        }
    }

    @Override
    public void gatherRows(float[] x, int xOff, float[] index, int indexOff, float[] out, int outOff, int rows,
                           int cols) {
        for (int r = 0; r < rows; r++) {
            out[outOff + r] = x[xOff + r * cols + classIndex(index[indexOff + r], r, cols)];
        }
    }

    @Override
    public void scatterRows(float[] dy, int dyOff, float[] index, int indexOff, float[] dx, int dxOff, int rows,
                            int cols) {
        Arrays.fill(dx, dxOff, dxOff + rows * cols, 0f);
        for (int r = 0; r < rows; r++) {
            dx[dxOff + r * cols + classIndex(index[indexOff + r], r, cols)] = dy[dyOff + r];
        }
    }

    @Override
    public void sparseSoftmaxCrossEntropy(float[] x, int xOff, float[] index, int indexOff, float[] probs,
                                          int probsOff, float[] loss, int lossOff, int rows, int cols) {
        for (int r = 0; r < rows; r++) {
            int label = classIndex(index[indexOff + r], r, cols);
            int xi = xOff + r * cols;
            int pi = probsOff + r * cols;
            // As softmax above, so the loss has the bits of -gatherRows(logSoftmax(x)) on this backend.
            float max = rowMax(x, xi, cols);
            double sum = expSum(x, xi, cols, max);
            for (int j = 0; j < cols; j++) {
                probs[pi + j] = (float) (Math.exp(x[xi + j] - max) / sum);
            }
            loss[lossOff + r] = -(float) (x[xi + label] - max - Math.log(sum));
        }
    }

    @Override
    public void sparseSoftmaxCrossEntropyBackward(float[] probs, int probsOff, float[] index, int indexOff,
                                                  float[] dy, int dyOff, float[] dx, int dxOff, int rows, int cols) {
        for (int r = 0; r < rows; r++) {
            int label = classIndex(index[indexOff + r], r, cols);
            float g = dy[dyOff + r];
            int pi = probsOff + r * cols;
            int xi = dxOff + r * cols;
            for (int j = 0; j < cols; j++) {
                dx[xi + j] = g * probs[pi + j];
            }
            dx[xi + label] = g * (probs[pi + label] - 1f);
        }
    }

    /** A class index stored as a float, checked to be an integer in {@code [0, cols)}. */
    static int classIndex(float value, int row, int cols) {
        if (!(value >= 0 && value < cols) || value != Math.rint(value)) {
            throw new IllegalArgumentException("class index " + value + " in row " + row
                    + " is not an integer in [0, " + cols + ")");
        }
        return (int) value;
    }

    // ---------------------------------------------------------------- convolution

    @Override
    public void conv2d(ConvGeometry g, float[] x, int xOff, float[] w, int wOff, float[] y, int yOff) {
        int rows = g.batch() * g.outH();
        int grain = Math.max(1, GRAIN_MACS / Math.max(1, macsPerOutputRow(g)));
        if (Split.serial(rows, grain)) {
            conv2dRows(g, x, xOff, w, wOff, y, yOff, 0, rows);
        } else {
            Parallel.forRange(rows, grain, (r0, r1) -> conv2dRows(g, x, xOff, w, wOff, y, yOff, r0, r1));
        }
    }

    @Override
    public void conv2dBiasActivation(ConvGeometry g, float[] x, int xOff, float[] w, int wOff, float[] bias,
                                     int biasOff, UnaryFn fn, float alpha, float[] y, int yOff) {
        conv2d(g, x, xOff, w, wOff, y, yOff);
        biasActivation(y, yOff, g.outChannels(), g.batch() * g.outH() * g.outW(), g.outChannels(), bias, biasOff, fn,
                alpha);
    }

    /** Output rows {@code [r0, r1)} of the {@code batch x outH} rows. */
    private static void conv2dRows(ConvGeometry g, float[] x, int xOff, float[] w, int wOff, float[] y, int yOff,
                                   int r0, int r1) {
        for (int row = r0; row < r1; row++) {
            int n = row / g.outH();
            int oh = row % g.outH();
            for (int ow = 0; ow < g.outW(); ow++) {
                int yi = yOff + ((row * g.outW()) + ow) * g.outChannels();
                for (int oc = 0; oc < g.outChannels(); oc++) {
                    float s = 0;
                    for (int i = 0; i < g.kernelH(); i++) {
                        int ih = oh * g.strideH() - g.padTop() + i;
                        if (ih < 0 || ih >= g.height()) {
                            continue;
                        }
                        for (int j = 0; j < g.kernelW(); j++) {
                            int iw = ow * g.strideW() - g.padLeft() + j;
                            if (iw < 0 || iw >= g.width()) {
                                continue;
                            }
                            int xi = xOff + ((n * g.height() + ih) * g.width() + iw) * g.channels();
                            int wi = wOff + ((i * g.kernelW() + j) * g.channels()) * g.outChannels() + oc;
                            for (int ch = 0; ch < g.channels(); ch++) {
                                s += x[xi + ch] * w[wi + ch * g.outChannels()];
                            }
                        }
                    }
                    y[yi + oc] = s;
                }
            }
        }
    }

    @Override
    public void conv2dBackwardInput(ConvGeometry g, float[] dy, int dyOff, float[] w, int wOff, float[] dx,
                                    int dxOff) {
        int grain = Math.max(1, GRAIN_MACS / Math.max(1, macsPerOutputRow(g) * g.outH()));
        // Images write disjoint parts of dx, so they can run in parallel.
        if (Split.serial(g.batch(), grain)) {
            conv2dBackwardInputImages(g, dy, dyOff, w, wOff, dx, dxOff, 0, g.batch());
        } else {
            Parallel.forRange(g.batch(), grain, (n0, n1) ->
                    conv2dBackwardInputImages(g, dy, dyOff, w, wOff, dx, dxOff, n0, n1));
        }
    }

    /** dx of images {@code [n0, n1)}. */
    private static void conv2dBackwardInputImages(ConvGeometry g, float[] dy, int dyOff, float[] w, int wOff,
                                                  float[] dx, int dxOff, int n0, int n1) {
        int imageSize = g.height() * g.width() * g.channels();
        for (int n = n0; n < n1; n++) {
            Arrays.fill(dx, dxOff + n * imageSize, dxOff + (n + 1) * imageSize, 0f);
            for (int oh = 0; oh < g.outH(); oh++) {
                for (int ow = 0; ow < g.outW(); ow++) {
                    int gi = dyOff + ((n * g.outH() + oh) * g.outW() + ow) * g.outChannels();
                    for (int i = 0; i < g.kernelH(); i++) {
                        int ih = oh * g.strideH() - g.padTop() + i;
                        if (ih < 0 || ih >= g.height()) {
                            continue;
                        }
                        for (int j = 0; j < g.kernelW(); j++) {
                            int iw = ow * g.strideW() - g.padLeft() + j;
                            if (iw < 0 || iw >= g.width()) {
                                continue;
                            }
                            int xi = dxOff + ((n * g.height() + ih) * g.width() + iw) * g.channels();
                            int wi = wOff + ((i * g.kernelW() + j) * g.channels()) * g.outChannels();
                            for (int ch = 0; ch < g.channels(); ch++) {
                                float s = 0;
                                for (int oc = 0; oc < g.outChannels(); oc++) {
                                    s += dy[gi + oc] * w[wi + ch * g.outChannels() + oc];
                                }
                                dx[xi + ch] += s;
                            }
                        }
                    }
                }
            }
        }
    }

    @Override
    public void conv2dBackwardFilter(ConvGeometry g, float[] x, int xOff, float[] dy, int dyOff, float[] dw,
                                     int dwOff) {
        int taps = g.kernelH() * g.kernelW() * g.channels();
        int outputs = g.batch() * g.outH() * g.outW();
        int grain = Math.max(1, GRAIN_MACS / Math.max(1, outputs * g.outChannels()));
        // Each kernel row (i, j, ch) sums over every output position; rows are written by one thread each.
        if (Split.serial(taps, grain)) {
            conv2dBackwardFilterTaps(g, x, xOff, dy, dyOff, dw, dwOff, 0, taps);
        } else {
            Parallel.forRange(taps, grain, (t0, t1) -> conv2dBackwardFilterTaps(g, x, xOff, dy, dyOff, dw, dwOff,
                    t0, t1));
        }
    }

    /** Rows {@code [t0, t1)} of dw viewed as a {@code (kh kw c) x oc} matrix. */
    private static void conv2dBackwardFilterTaps(ConvGeometry g, float[] x, int xOff, float[] dy, int dyOff,
                                                 float[] dw, int dwOff, int t0, int t1) {
        for (int t = t0; t < t1; t++) {
            int i = t / (g.kernelW() * g.channels());
            int j = t / g.channels() % g.kernelW();
            int ch = t % g.channels();
            int wi = dwOff + t * g.outChannels();
            Arrays.fill(dw, wi, wi + g.outChannels(), 0f);
            for (int n = 0; n < g.batch(); n++) {
                for (int oh = 0; oh < g.outH(); oh++) {
                    int ih = oh * g.strideH() - g.padTop() + i;
                    if (ih < 0 || ih >= g.height()) {
                        continue;
                    }
                    for (int ow = 0; ow < g.outW(); ow++) {
                        int iw = ow * g.strideW() - g.padLeft() + j;
                        if (iw < 0 || iw >= g.width()) {
                            continue;
                        }
                        float xv = x[xOff + ((n * g.height() + ih) * g.width() + iw) * g.channels() + ch];
                        int gi = dyOff + ((n * g.outH() + oh) * g.outW() + ow) * g.outChannels();
                        for (int oc = 0; oc < g.outChannels(); oc++) {
                            dw[wi + oc] += xv * dy[gi + oc];
                        }
                    }
                }
            }
        }
    }

    private static int macsPerOutputRow(ConvGeometry g) {
        return g.outW() * g.outChannels() * g.kernelH() * g.kernelW() * g.channels();
    }

    // ---------------------------------------------------------------- pooling

    @Override
    public void maxPool2d(PoolGeometry g, float[] x, int xOff, float[] y, int yOff, float[] cells, int cellsOff) {
        int yi = 0;
        for (int n = 0; n < g.batch(); n++) {
            for (int oh = 0; oh < g.outH(); oh++) {
                for (int ow = 0; ow < g.outW(); ow++) {
                    for (int ch = 0; ch < g.channels(); ch++, yi++) {
                        int cell = firstMaxCell(g, x, xOff, n, oh, ow, ch);
                        float max = cell < 0 ? 0f : x[xOff + cellOffset(g, n, oh, ow, ch, cell)];
                        y[yOff + yi] = max;
                        if (cells != null) {
                            cells[cellsOff + yi] = cell < 0 ? NO_CELL : max > 0 ? cell : -1 - cell;
                        }
                    }
                }
            }
        }
    }

    @Override
    public void maxPool2dBackward(PoolGeometry g, float[] cells, int cellsOff, float[] dy, int dyOff, float[] dx,
                                  int dxOff) {
        routeToCells(g, cells, cellsOff, dy, dyOff, dx, dxOff, false);
    }

    @Override
    public void maxPool2dBackwardGated(PoolGeometry g, float[] cells, int cellsOff, float[] dy, int dyOff,
                                       BinaryFn fn, float alpha, float[] gate, int gateOff, float[] dx, int dxOff) {
        if (gate == null) {
            requireReluGradient(fn);
            routeToCells(g, cells, cellsOff, dy, dyOff, dx, dxOff, true);
            return;
        }
        routeToCells(g, cells, cellsOff, dy, dyOff, dx, dxOff, false);
        int n = g.batch() * g.height() * g.width() * g.channels();
        for (int i = 0; i < n; i++) {
            dx[dxOff + i] = binary(fn, alpha, gate[gateOff + i], dx[dxOff + i]);
        }
    }

    /** A null gate stands for relu's gradient of the pooled input; any other gradient needs its gate array. */
    static void requireReluGradient(BinaryFn fn) {
        if (fn != BinaryFn.RELU_GRAD) {
            throw new IllegalArgumentException("a max-pool gradient gated by its own input takes RELU_GRAD, not " + fn);
        }
    }

    /**
     * Clears dx, then adds each dy to the cell {@code cells} names; with {@code positiveOnly}, only where the
     * window's maximum was above zero (relu's gradient of the pooled input).
     */
    private static void routeToCells(PoolGeometry g, float[] cells, int cellsOff, float[] dy, int dyOff, float[] dx,
                                     int dxOff, boolean positiveOnly) {
        Arrays.fill(dx, dxOff, dxOff + g.batch() * g.height() * g.width() * g.channels(), 0f);
        int yi = 0;
        for (int n = 0; n < g.batch(); n++) {
            for (int oh = 0; oh < g.outH(); oh++) {
                for (int ow = 0; ow < g.outW(); ow++) {
                    for (int ch = 0; ch < g.channels(); ch++, yi++) {
                        float recorded = cells[cellsOff + yi];
                        if (recorded == NO_CELL || positiveOnly && recorded < 0) {
                            continue;
                        }
                        int cell = (int) (recorded >= 0 ? recorded : -1 - recorded);
                        dx[dxOff + cellOffset(g, n, oh, ow, ch, cell)] += dy[dyOff + yi];
                    }
                }
            }
        }
    }

    /**
     * The index {@code i * poolW + j} in its window of the first maximum, scanning rows then columns and skipping
     * padding; -1 for a window that lies wholly in the padding, whose output is 0.
     */
    private static int firstMaxCell(PoolGeometry g, float[] x, int xOff, int n, int oh, int ow, int ch) {
        int best = -1;
        float max = 0f;
        for (int i = 0; i < g.poolH(); i++) {
            int ih = oh * g.strideH() - g.padTop() + i;
            for (int j = 0; j < g.poolW(); j++) {
                int iw = ow * g.strideW() - g.padLeft() + j;
                if (ih < 0 || ih >= g.height() || iw < 0 || iw >= g.width()) {
                    continue;
                }
                float v = x[xOff + ((n * g.height() + ih) * g.width() + iw) * g.channels() + ch];
                if (best < 0 || v > max) {
                    best = i * g.poolW() + j;
                    max = v;
                }
            }
        }
        return best;
    }

    /** The offset (from the start of the images) of cell {@code i * poolW + j} of window (oh, ow) of image n. */
    private static int cellOffset(PoolGeometry g, int n, int oh, int ow, int ch, int cell) {
        int ih = oh * g.strideH() - g.padTop() + cell / g.poolW();
        int iw = ow * g.strideW() - g.padLeft() + cell % g.poolW();
        return ((n * g.height() + ih) * g.width() + iw) * g.channels() + ch;
    }

    @Override
    public void avgPool2d(PoolGeometry g, float[] x, int xOff, float[] y, int yOff) {
        int yi = yOff;
        for (int n = 0; n < g.batch(); n++) {
            for (int oh = 0; oh < g.outH(); oh++) {
                for (int ow = 0; ow < g.outW(); ow++) {
                    for (int ch = 0; ch < g.channels(); ch++) {
                        double sum = 0;
                        for (int i = 0; i < g.poolH(); i++) {
                            int ih = oh * g.strideH() - g.padTop() + i;
                            for (int j = 0; j < g.poolW(); j++) {
                                int iw = ow * g.strideW() - g.padLeft() + j;
                                if (ih >= 0 && ih < g.height() && iw >= 0 && iw < g.width()) {
                                    sum += x[xOff + ((n * g.height() + ih) * g.width() + iw) * g.channels() + ch];
                                }
                            }
                        }
                        int count = unpaddedCells(g, oh, ow);
                        y[yi++] = count == 0 ? 0f : (float) (sum / count);
                    }
                }
            }
        }
    }

    @Override
    public void avgPool2dBackward(PoolGeometry g, float[] dy, int dyOff, float[] dx, int dxOff) {
        Arrays.fill(dx, dxOff, dxOff + g.batch() * g.height() * g.width() * g.channels(), 0f);
        int yi = dyOff;
        for (int n = 0; n < g.batch(); n++) {
            for (int oh = 0; oh < g.outH(); oh++) {
                for (int ow = 0; ow < g.outW(); ow++) {
                    int count = unpaddedCells(g, oh, ow);
                    for (int ch = 0; ch < g.channels(); ch++, yi++) {
                        for (int i = 0; i < g.poolH(); i++) {
                            int ih = oh * g.strideH() - g.padTop() + i;
                            for (int j = 0; j < g.poolW(); j++) {
                                int iw = ow * g.strideW() - g.padLeft() + j;
                                if (ih >= 0 && ih < g.height() && iw >= 0 && iw < g.width()) {
                                    dx[dxOff + ((n * g.height() + ih) * g.width() + iw) * g.channels() + ch]
                                            += dy[yi] / count;
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /** The number of cells of window (oh, ow) inside the image: the divisor of average pooling. */
    static int unpaddedCells(PoolGeometry g, int oh, int ow) {
        int h0 = oh * g.strideH() - g.padTop();
        int w0 = ow * g.strideW() - g.padLeft();
        int rows = Math.min(g.height(), h0 + g.poolH()) - Math.max(0, h0);
        int cols = Math.min(g.width(), w0 + g.poolW()) - Math.max(0, w0);
        return Math.max(0, rows) * Math.max(0, cols);
    }

    // ---------------------------------------------------------------- data movement

    @Override
    public void fill(float[] y, int yOff, int n, float value) {
        Arrays.fill(y, yOff, yOff + n, value);
    }

    @Override
    public void copy(float[] x, int xOff, float[] y, int yOff, int n) {
        System.arraycopy(x, xOff, y, yOff, n);
    }

    @Override
    public void transpose(float[] x, int xOff, float[] y, int yOff, int batch, int rows, int cols) {
        for (int bt = 0; bt < batch; bt++) {
            int base = bt * rows * cols;
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < cols; c++) {
                    y[yOff + base + c * rows + r] = x[xOff + base + r * cols + c];
                }
            }
        }
    }

    // ---------------------------------------------------------------- dropout

    @Override
    public void dropout(float rate, long seed, float[] x, int xOff, float[] mask, int maskOff, float[] y, int yOff,
                        int n) {
        checkDropoutRate(rate);
        float keep = 1 - rate;
        long key = DropoutMask.key(seed);
        if (Split.serial(n, DROPOUT_GRAIN)) {
            dropoutRange(rate, key, keep, x, xOff, mask, maskOff, y, yOff, 0, n);
        } else {
            Parallel.forRange(n, DROPOUT_GRAIN, (i0, i1) ->
                    dropoutRange(rate, key, keep, x, xOff, mask, maskOff, y, yOff, i0, i1));
        }
    }

    /**
     * Dropout over elements {@code [i0, i1)}; also {@link VectorDropout}'s tail, so the two share these bits.
     *
     * <p>A kept element is {@code x / keep}, one rounding, as Keras 3's JAX backend computes it
     * ({@code inputs / keep_prob}, whose gradient divides too). The gradient here is the compiled step's
     * {@code DROPOUT_GRAD}, {@code dy * mask * (1 / keep)}: PyTorch's rule, which multiplies by the rounded
     * {@code 1 / keep} in both passes. The two passes are left different on purpose: a quotient and a product by the
     * rounded reciprocal differ in the last bit for about a quarter of normal draws at rate 0.1, so making either pass
     * the other's operation would change the bits of every seeded run that trains through dropout.
     */
    static void dropoutRange(float rate, long key, float keep, float[] x, int xOff, float[] mask, int maskOff,
                             float[] y, int yOff, int i0, int i1) {
        for (int i = i0; i < i1; i++) {
            boolean kept = DropoutMask.kept(key, i, rate);
            mask[maskOff + i] = kept ? 1f : 0f;
            y[yOff + i] = kept ? x[xOff + i] / keep : 0f;
        }
    }

    @Override
    public void randomNormal(float stddev, long seed, float[] y, int yOff, int n) {
        long key = DropoutMask.key(seed);
        if (Split.serial(n, DROPOUT_GRAIN)) {
            normalRange(stddev, key, y, yOff, 0, n);
        } else {
            Parallel.forRange(n, DROPOUT_GRAIN, (i0, i1) -> normalRange(stddev, key, y, yOff, i0, i1));
        }
    }

    private static void normalRange(float stddev, long key, float[] y, int yOff, int i0, int i1) {
        for (int i = i0; i < i1; i++) {
            y[yOff + i] = (float) (stddev * DropoutMask.normal(key, i));
        }
    }

    static void checkDropoutRate(float rate) {
        if (!(rate >= 0 && rate < 1)) {
            throw new IllegalArgumentException("dropout rate must be in [0, 1), got " + rate);
        }
    }

    // ---------------------------------------------------------------- optimisers
    // A moment too small for its next products to stay normal floats counts as zero (TinyMoments says why and where).

    @Override
    public void adamStep(float[] p, int pOff, float[] g, int gOff, float[] m, int mOff, float[] v, int vOff, int n,
                         float lrT, float beta1, float beta2, float epsHat, float decoupledDecay) {
        float mTiny = TinyMoments.adamFirst(beta1, lrT);
        float vTiny = TinyMoments.adamSecond(beta2);
        for (int i = 0; i < n; i++) {
            float gi = g[gOff + i];
            float m0 = m[mOff + i];
            float v0 = v[vOff + i];
            float mi = beta1 * (Math.abs(m0) < mTiny ? 0f : m0) + (1 - beta1) * gi;
            float vi = beta2 * (v0 < vTiny ? 0f : v0) + (1 - beta2) * gi * gi;
            m[mOff + i] = mi;
            v[vOff + i] = vi;
            float pi = p[pOff + i];
            pi -= decoupledDecay * pi;
            p[pOff + i] = pi - lrT * mi / ((float) Math.sqrt(vi) + epsHat);
        }
    }

    @Override
    public void sgdStep(float[] p, int pOff, float[] g, int gOff, float[] vel, int velOff, int n, float lr,
                        float momentum, boolean nesterov, float decay) {
        float velTiny = TinyMoments.sgdVelocity(momentum, nesterov);
        for (int i = 0; i < n; i++) {
            float gi = g[gOff + i];
            if (decay != 0) {
                // Keras' decoupled weight decay, before the step; skipped at 0 so plain SGD keeps its bits
                float pi = p[pOff + i];
                p[pOff + i] = pi - pi * decay;
            }
            if (momentum == 0) {
                p[pOff + i] -= lr * gi;
            } else {
                float v0 = vel[velOff + i];
                float vi = momentum * (Math.abs(v0) < velTiny ? 0f : v0) - lr * gi;
                vel[velOff + i] = vi;
                p[pOff + i] += nesterov ? momentum * vi - lr * gi : vi;
            }
        }
    }

    @Override
    public void rmspropStep(float[] p, int pOff, float[] g, int gOff, float[] ms, int msOff, int n, float lr,
                            float rho, float eps) {
        float msTiny = TinyMoments.rmspropMeanSquare(rho);
        for (int i = 0; i < n; i++) {
            float gi = g[gOff + i];
            float s0 = ms[msOff + i];
            float si = rho * (s0 < msTiny ? 0f : s0) + (1 - rho) * gi * gi;
            ms[msOff + i] = si;
            p[pOff + i] -= lr * gi / (float) Math.sqrt(si + eps);
        }
    }

    // The newer optimisers below (Adagrad, Adadelta, Adamax, Nadam, Lion, AMSGrad, RMSprop with momentum or centring)
    // follow Keras' update_step term by term, in the same operation order as VectorOptimizers, each decaying moment
    // flushed to zero as TinyMoments says (Adagrad's sum and AMSGrad's maximum never decay).

    @Override
    public void adagradStep(float[] p, int pOff, float[] g, int gOff, float[] acc, int accOff, int n, float lr,
                            float eps, float decay) {
        for (int i = 0; i < n; i++) {
            float gi = g[gOff + i];
            float a = acc[accOff + i] + gi * gi;
            acc[accOff + i] = a;
            float pi = p[pOff + i];
            pi -= decay * pi;
            p[pOff + i] = pi - lr * gi / (float) Math.sqrt(a + eps);
        }
    }

    @Override
    public void adadeltaStep(float[] p, int pOff, float[] g, int gOff, float[] ag, int agOff, float[] ad, int adOff,
                             int n, float lr, float rho, float eps, float decay) {
        float c = 1 - rho;
        float tiny = TinyMoments.decaying(rho);
        for (int i = 0; i < n; i++) {
            float gi = g[gOff + i];
            float a = rho * TinyMoments.flush(ag[agOff + i], tiny) + c * gi * gi;
            ag[agOff + i] = a;
            float d0 = TinyMoments.flush(ad[adOff + i], tiny);
            float delta = -(float) Math.sqrt(d0 + eps) * gi / (float) Math.sqrt(a + eps);
            ad[adOff + i] = rho * d0 + c * delta * delta;
            float pi = p[pOff + i];
            pi -= decay * pi;
            p[pOff + i] = pi + lr * delta;
        }
    }

    @Override
    public void adamaxStep(float[] p, int pOff, float[] g, int gOff, float[] m, int mOff, float[] u, int uOff, int n,
                           float lrT, float beta1, float beta2, float eps, float decay) {
        float c = 1 - beta1;
        float mTiny = TinyMoments.adamFirst(beta1, lrT);
        float uTiny = TinyMoments.decaying(beta2);
        for (int i = 0; i < n; i++) {
            float gi = g[gOff + i];
            float m0 = TinyMoments.flush(m[mOff + i], mTiny);
            float mi = m0 + (gi - m0) * c;
            float ui = Math.max(beta2 * TinyMoments.flush(u[uOff + i], uTiny), Math.abs(gi));
            m[mOff + i] = mi;
            u[uOff + i] = ui;
            float pi = p[pOff + i];
            pi -= decay * pi;
            p[pOff + i] = pi - lrT * mi / (ui + eps);
        }
    }

    @Override
    public void nadamStep(float[] p, int pOff, float[] g, int gOff, float[] m, int mOff, float[] v, int vOff, int n,
                          float mRate, float gRate, float vCorrection, float beta1, float beta2, float eps,
                          float decay) {
        float c1 = 1 - beta1;
        float c2 = 1 - beta2;
        float mTiny = TinyMoments.adamFirst(beta1, mRate);
        float vTiny = TinyMoments.decaying(beta2);
        for (int i = 0; i < n; i++) {
            float gi = g[gOff + i];
            float m0 = TinyMoments.flush(m[mOff + i], mTiny);
            float v0 = TinyMoments.flush(v[vOff + i], vTiny);
            float mi = m0 + (gi - m0) * c1;
            float vi = v0 + (gi * gi - v0) * c2;
            m[mOff + i] = mi;
            v[vOff + i] = vi;
            float pi = p[pOff + i];
            pi -= decay * pi;
            p[pOff + i] = pi - (mRate * mi + gRate * gi) / ((float) Math.sqrt(vi * vCorrection) + eps);
        }
    }

    @Override
    public void lionStep(float[] p, int pOff, float[] g, int gOff, float[] m, int mOff, int n, float lr, float beta1,
                         float beta2, float decay) {
        float c1 = 1 - beta1;
        float c2 = 1 - beta2;
        float mTiny = TinyMoments.decaying(Math.min(beta1, beta2));
        for (int i = 0; i < n; i++) {
            float gi = g[gOff + i];
            float m0 = TinyMoments.flush(m[mOff + i], mTiny);
            float pi = p[pOff + i];
            pi -= decay * pi;
            p[pOff + i] = pi - lr * Math.signum(m0 * beta1 + gi * c1);
            m[mOff + i] = m0 * beta2 + gi * c2;
        }
    }

    @Override
    public void amsgradStep(float[] p, int pOff, float[] g, int gOff, float[] m, int mOff, float[] v, int vOff,
                            float[] vHat, int vHatOff, int n, float lrT, float beta1, float beta2, float epsHat,
                            float decay) {
        float c1 = 1 - beta1;
        float c2 = 1 - beta2;
        float mTiny = TinyMoments.adamFirst(beta1, lrT);
        float vTiny = TinyMoments.decaying(beta2);
        for (int i = 0; i < n; i++) {
            float gi = g[gOff + i];
            float m0 = TinyMoments.flush(m[mOff + i], mTiny);
            float v0 = TinyMoments.flush(v[vOff + i], vTiny);
            float mi = m0 + (gi - m0) * c1;
            float vi = v0 + (gi * gi - v0) * c2;
            float hi = Math.max(vHat[vHatOff + i], vi);
            m[mOff + i] = mi;
            v[vOff + i] = vi;
            vHat[vHatOff + i] = hi;
            float pi = p[pOff + i];
            pi -= decay * pi;
            p[pOff + i] = pi - mi * lrT / ((float) Math.sqrt(hi) + epsHat);
        }
    }

    @Override
    public void rmspropFullStep(float[] p, int pOff, float[] g, int gOff, float[] ms, int msOff, float[] mom,
                                int momOff, float[] mg, int mgOff, int n, float lr, float rho, float momentum,
                                float eps, float decay) {
        float c = 1 - rho;
        float tiny = TinyMoments.decaying(rho);
        float momTiny = TinyMoments.decaying(momentum);
        for (int i = 0; i < n; i++) {
            float gi = g[gOff + i];
            float si = rho * TinyMoments.flush(ms[msOff + i], tiny) + c * gi * gi;
            ms[msOff + i] = si;
            float den;
            if (mg != null) {
                float ai = rho * TinyMoments.flush(mg[mgOff + i], tiny) + c * gi;
                mg[mgOff + i] = ai;
                den = si - ai * ai + eps;
            } else {
                den = si + eps;
            }
            float inc = lr * gi / (float) Math.sqrt(den);
            float pi = p[pOff + i];
            pi -= decay * pi;
            if (mom != null) {
                float mo = momentum * TinyMoments.flush(mom[momOff + i], momTiny) + inc;
                mom[momOff + i] = mo;
                p[pOff + i] = pi - mo;
            } else {
                p[pOff + i] = pi - inc;
            }
        }
    }

    @Override
    public void ftrlStep(float[] p, int pOff, float[] g, int gOff, float[] acc, int accOff, float[] lin, int linOff,
                         int n, float lr, float power, float l1, float twoL2, float shrinkage2, float decay) {
        ftrlRange(p, pOff, g, gOff, acc, accOff, lin, linOff, 0, n, lr, power, l1, twoL2, shrinkage2, decay);
    }

    /**
     * FTRL's step on [i0, i1), Keras' update_step term by term. Neither state array decays, so nothing is flushed.
     * Also the vector kernel's path for a power other than -0.5 or 0, which the vector API has no exact form of.
     */
    static void ftrlRange(float[] p, int pOff, float[] g, int gOff, float[] acc, int accOff, float[] lin, int linOff,
                          int i0, int i1, float lr, float power, float l1, float twoL2, float shrinkage2,
                          float decay) {
        for (int i = i0; i < i1; i++) {
            float gi = g[gOff + i];
            float pi = p[pOff + i];
            pi -= decay * pi;
            float a0 = acc[accOff + i];
            float a1 = a0 + gi * gi;
            float r1 = ftrlPower(a1, power);
            float l = lin[linOff + i] + (gi + shrinkage2 * pi - (r1 - ftrlPower(a0, power)) / lr * pi);
            lin[linOff + i] = l;
            float quadratic = r1 / lr + twoL2;
            p[pOff + i] = (Math.min(Math.max(l, -l1), l1) - l) / quadratic;
            acc[accOff + i] = a1;
        }
    }

    /** {@code a^(-power)}: the correctly rounded root at Keras' default -0.5, 1 at 0, else Math.pow. */
    static float ftrlPower(float a, float power) {
        if (power == -0.5f) {
            return (float) Math.sqrt(a);
        }
        return power == 0f ? 1f : (float) Math.pow(a, -power);
    }

    @Override
    public void permute(float[] x, int xOff, int[] dims, int[] perm, float[] y, int yOff) {
        // scratch: the output index per axis, then the input's stride per axis (no allocation per call).
        int rank = dims.length;
        int[] scratch = Scratch.get().dims(2 * rank);
        int stride = 1;
        for (int i = rank - 1; i >= 0; i--) {
            scratch[rank + i] = stride;
            stride *= dims[i];
        }
        int total = stride;
        for (int i = 0; i < rank; i++) {
            scratch[i] = 0;
        }
        int from = xOff;
        for (int o = 0; o < total; o++) {
            y[yOff + o] = x[from];
            // Next output index, odometer-wise over the output axes; the input offset follows.
            for (int i = rank - 1; i >= 0; i--) {
                int axis = perm[i];
                if (++scratch[i] < dims[axis]) {
                    from += scratch[rank + axis];
                    break;
                }
                from -= (dims[axis] - 1) * scratch[rank + axis];
                scratch[i] = 0;
            }
        }
    }

    @Override
    public void softmaxAlongAxis(boolean log, float[] x, int xOff, float[] y, int yOff, int outer, int length,
                                 int inner) {
        for (int o = 0; o < outer; o++) {
            for (int i = 0; i < inner; i++) {
                int base = o * length * inner + i;
                softmaxColumn(log, x, xOff + base, y, yOff + base, length, inner);
            }
        }
    }

    /** Softmax (or log-softmax) of the {@code length} elements {@code stride} apart from {@code xOff}. */
    static void softmaxColumn(boolean log, float[] x, int xOff, float[] y, int yOff, int length, int stride) {
        float max = Float.NEGATIVE_INFINITY;
        for (int j = 0; j < length; j++) {
            max = Math.max(max, x[xOff + j * stride]);
        }
        double sum = 0;
        for (int j = 0; j < length; j++) {
            sum += Math.exp(x[xOff + j * stride] - max);
        }
        for (int j = 0; j < length; j++) {
            float v = x[xOff + j * stride];
            y[yOff + j * stride] = log ? (float) (v - max - Math.log(sum)) : (float) (Math.exp(v - max) / sum);
        }
    }

    @Override
    public void softmaxAlongAxisBackward(boolean log, float[] y, int yOff, float[] dy, int dyOff, float[] dx,
                                         int dxOff, int outer, int length, int inner) {
        for (int o = 0; o < outer; o++) {
            for (int i = 0; i < inner; i++) {
                int base = o * length * inner + i;
                softmaxColumnBackward(log, y, yOff + base, dy, dyOff + base, dx, dxOff + base, length, inner);
            }
        }
    }

    /** The backward of {@link #softmaxColumn} over the same elements. */
    static void softmaxColumnBackward(boolean log, float[] y, int yOff, float[] dy, int dyOff, float[] dx, int dxOff,
                                      int length, int stride) {
        double s = 0;
        for (int j = 0; j < length; j++) {
            int at = j * stride;
            s += log ? dy[dyOff + at] : (double) dy[dyOff + at] * y[yOff + at];
        }
        for (int j = 0; j < length; j++) {
            int at = j * stride;
            dx[dxOff + at] = log ? (float) (dy[dyOff + at] - Math.exp(y[yOff + at]) * s)
                    : (float) (y[yOff + at] * (dy[dyOff + at] - s));
        }
    }

    @Override
    public void attention(AttentionGeometry g, float[] q, int qOff, float[] k, int kOff, float[] v, int vOff,
                          float[] mask, int maskOff, float[] out, int outOff, float[] stats, int statsOff) {
        ScalarAttention.forward(g, q, qOff, k, kOff, v, vOff, mask, maskOff, out, outOff, stats, statsOff);
    }

    @Override
    public void attentionBackward(AttentionGeometry g, float[] q, int qOff, float[] k, int kOff, float[] v, int vOff,
                                  float[] mask, int maskOff, float[] out, int outOff, float[] stats, int statsOff,
                                  float[] dOut, int dOutOff, float[] grads, int gradsOff) {
        ScalarAttention.backward(g, q, qOff, k, kOff, v, vOff, mask, maskOff, out, outOff, stats, statsOff, dOut,
                dOutOff,
                grads, gradsOff);
    }

    @Override
    public void layerNorm(float epsilon, float[] x, int xOff, float[] gamma, int gammaOff, float[] beta,
                          int betaOff, float[] y, int yOff, int rows, int cols) {
        LayerNormLoops.normalize(false, epsilon, x, xOff, gamma, gammaOff, beta, betaOff, y, yOff, rows, cols);
    }

    @Override
    public void layerNormParamGrad(float epsilon, float[] dy, int dyOff, float[] x, int xOff, float[] out,
                                   int outOff, int rows, int cols) {
        LayerNormLoops.paramGrad(false, epsilon, dy, dyOff, x, xOff, out, outOff, rows, cols);
    }

    @Override
    public void layerNormGrad(float epsilon, float[] dy, int dyOff, float[] x, int xOff, float[] gamma,
                              int gammaOff, float[] dx, int dxOff, int rows, int cols) {
        LayerNormLoops.inputGrad(false, epsilon, dy, dyOff, x, xOff, gamma, gammaOff, dx, dxOff, rows, cols);
    }

    // ---------------------------------------------------------------- embedding lookup

    @Override
    public void embeddingLookup(float[] table, int tableOff, int vocab, int dim, float[] ids, int idsOff, int count,
                                float[] out, int outOff) {
        for (int p = 0; p < count; p++) {
            int id = tokenId(ids, idsOff, p, vocab);
            for (int j = 0; j < dim; j++) {
                out[outOff + p * dim + j] = table[tableOff + id * dim + j];
            }
        }
    }

    @Override
    public void embeddingGrad(float[] dy, int dyOff, float[] ids, int idsOff, int count, float[] dTable,
                              int dTableOff, int vocab, int dim) {
        Arrays.fill(dTable, dTableOff, dTableOff + vocab * dim, 0f);
        for (int p = 0; p < count; p++) {
            int row = dTableOff + tokenId(ids, idsOff, p, vocab) * dim;
            for (int j = 0; j < dim; j++) {
                dTable[row + j] += dy[dyOff + p * dim + j];
            }
        }
    }

    @Override
    public void nonzeroMask(float[] ids, int idsOff, float[] out, int outOff, int n) {
        for (int i = 0; i < n; i++) {
            out[outOff + i] = Float.floatToRawIntBits(ids[idsOff + i]) != 0 ? 1f : 0f;
        }
    }

    /**
     * The id at {@code position}, read from its INT32 bits and checked against the vocabulary (Keras raises on an id
     * out of range too, rather than reading another row).
     */
    static int tokenId(float[] ids, int idsOff, int position, int vocab) {
        int id = Float.floatToRawIntBits(ids[idsOff + position]);
        if (id < 0 || id >= vocab) {
            throw new IllegalArgumentException("token id " + id + " at position " + position
                    + " is outside the vocabulary [0, " + vocab + ")");
        }
        return id;
    }
}

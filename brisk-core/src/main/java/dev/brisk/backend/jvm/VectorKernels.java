package dev.brisk.backend.jvm;

import dev.brisk.backend.ElementwiseChain;
import dev.brisk.backend.Kernels;
import dev.brisk.backend.RecurrentLoops;
import dev.brisk.ops.AttentionGeometry;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.PoolGeometry;
import dev.brisk.ops.RecurrentGeometry;
import dev.brisk.ops.ReduceFn;
import dev.brisk.ops.UnaryFn;
import dev.brisk.parallel.Parallel;
import jdk.incubator.vector.FloatVector;

/**
 * The training backend ("jvm-vector"): the hot kernels on the {@code jdk.incubator.vector} API, the rest
 * delegated to {@link ScalarKernels}. Loading this class needs the JVM flag
 * {@code --add-modules jdk.incubator.vector}; {@link dev.brisk.backend.Backends} checks before it does.
 */
public final class VectorKernels implements Kernels {
    /** Touches the Vector API while this class initialises, so a JVM without it fails here, not mid-training. */
    static final int LANES = FloatVector.SPECIES_PREFERRED.length();

    static {
        // Before any kernel runs hot: C2 must not compile a caller of the vector helpers without them inlined.
        JitInlining.install();
    }
    /** Edge of the square blocks transposed at a time, so that both sides stay in L1. */
    private static final int TILE = 32;

    private final ScalarKernels reference = new ScalarKernels();

    @Override
    public String name() {
        return "jvm-vector";
    }

    @Override
    public void gemm(boolean transA, boolean transB, int m, int n, int k, float[] a, int aOff, int lda, float[] b,
                     int bOff, int ldb, float[] c, int cOff, int ldc, boolean accumulate) {
        VectorGemm.gemm(GemmArgs.get().product(transA, transB, m, n, k).a(a, aOff, lda).b(b, bOff, ldb)
                .c(c, cOff, ldc).accumulate(accumulate));
    }

    @Override
    public void gemmBiasActivation(boolean transA, boolean transB, int m, int n, int k, float[] a, int aOff, int lda,
                                   float[] b, int bOff, int ldb, float[] bias, int biasOff, UnaryFn fn, float alpha,
                                   float[] c, int cOff, int ldc) {
        VectorGemm.gemm(GemmArgs.get().product(transA, transB, m, n, k).a(a, aOff, lda).b(b, bOff, ldb)
                .c(c, cOff, ldc).epilogue(bias, biasOff, fn, alpha));
    }

    @Override
    public void gemmBiasActivationKeepingInput(boolean transA, boolean transB, int m, int n, int k, float[] a,
                                               int aOff, int lda, float[] b, int bOff, int ldb, float[] bias,
                                               int biasOff, UnaryFn fn, float alpha, float[] c, int cOff, float[] y,
                                               int yOff, int ldc) {
        VectorGemm.gemm(GemmArgs.get().product(transA, transB, m, n, k).a(a, aOff, lda).b(b, bOff, ldb)
                .c(c, cOff, ldc).epilogue(bias, biasOff, fn, alpha).activated(y, yOff));
    }

    @Override
    public void gemmBinary(boolean transA, boolean transB, int m, int n, int k, float[] a, int aOff, int lda,
                           float[] b, int bOff, int ldb, float[] bias, int biasOff, UnaryFn activation,
                           float activationAlpha, BinaryFn fn, float alpha, float[] x, int xOff,
                           boolean productFirst, float[] c, int cOff, int ldc) {
        if ((long) m * n == 1) {
            // The separate binary kernel computes a single element with the scalar formula: so does this call.
            gemmBiasActivation(transA, transB, m, n, k, a, aOff, lda, b, bOff, ldb, bias, biasOff, activation,
                    activationAlpha, c, cOff, ldc);
            c[cOff] = productFirst ? ScalarKernels.binary(fn, alpha, c[cOff], x[xOff])
                    : ScalarKernels.binary(fn, alpha, x[xOff], c[cOff]);
            return;
        }
        VectorGemm.gemm(GemmArgs.get().product(transA, transB, m, n, k).a(a, aOff, lda).b(b, bOff, ldb)
                .c(c, cOff, ldc).epilogue(bias, biasOff, activation, activationAlpha)
                .binary(fn, alpha, x, xOff, productFirst));
    }

    @Override
    public void unary(UnaryFn fn, float alpha, float[] x, int xOff, float[] y, int yOff, int n) {
        VectorElementwise.unary(fn, alpha, x, xOff, y, yOff, n);
    }

    @Override
    public void binaryActivation(BinaryFn fn, float alpha, float[] a, int aOff, float[] b, int bOff,
                                 UnaryFn activation, float activationAlpha, float[] out, int outOff, int n) {
        VectorElementwise.binaryActivation(fn, alpha, a, aOff, b, bOff, activation, activationAlpha, out, outOff, n);
    }

    @Override
    public void elementwiseChain(ElementwiseChain chain, float[][] inputs, int[] inputOffsets, float[] out,
                                 int outOff) {
        VectorChain.run(chain, inputs, inputOffsets, out, outOff);
    }

    @Override
    public void binary(BinaryFn fn, float alpha, float[] a, int aOff, int[] aStrides, float[] b, int bOff,
                       int[] bStrides, float[] out, int outOff, int[] outShape) {
        VectorElementwise.binary(fn, alpha, a, aOff, aStrides, b, bOff, bStrides, out, outOff, outShape);
    }

    @Override
    public void reduce(ReduceFn fn, float[] x, int xOff, int[] shape, boolean[] reduceAxes, float[] out,
                       int outOff) {
        if (!VectorReduce.reduce(fn, x, xOff, shape, reduceAxes, out, outOff)) {
            reference.reduce(fn, x, xOff, shape, reduceAxes, out, outOff);
        }
    }

    // Batch normalization: the scalar backend's loops, split over the pool, their channels in Vector API loops
    // (VectorBatchNormRows) with the same bits.

    @Override
    public void batchNormStatistics(float[] x, int xOff, int rows, int channels, float[] out, int outOff) {
        BatchNormLoops.statistics(true, true, x, xOff, rows, channels, out, outOff);
    }

    @Override
    public void batchNorm(float epsilon, float[] x, int xOff, float[] stats, int statsOff, float[] gamma,
                          int gammaOff, float[] beta, int betaOff, UnaryFn activation, float alpha, float[] y,
                          int yOff, int rows, int channels) {
        BatchNormLoops.normalize(true, true, epsilon, x, xOff, stats, statsOff, gamma, gammaOff, beta, betaOff,
                activation, alpha, y, yOff, rows, channels);
    }

    @Override
    public void batchNormBinary(float epsilon, float[] x, int xOff, float[] stats, int statsOff, float[] gamma,
                                int gammaOff, float[] beta, int betaOff, BinaryFn fn, float fnAlpha, float[] other,
                                int otherOff, boolean normalizedFirst, UnaryFn activation, float alpha, float[] y,
                                int yOff, int rows, int channels) {
        BatchNormLoops.normalize(true, true, epsilon, x, xOff, stats, statsOff, gamma, gammaOff, beta, betaOff, fn,
                fnAlpha, other, otherOff, normalizedFirst, activation, alpha, y, yOff, rows, channels);
    }

    @Override
    public void batchNormParamGrad(float epsilon, float[] dy, int dyOff, float[] gate, int gateOff, float[] x,
                                   int xOff, float[] stats, int statsOff, float[] out, int outOff, int rows,
                                   int channels) {
        BatchNormLoops.paramGrad(true, true, epsilon, dy, dyOff, gate, gateOff, x, xOff, stats, statsOff, null, 0, null,
                0, out, outOff, rows, channels);
    }

    @Override
    public void batchNormGrad(float epsilon, boolean training, float[] dy, int dyOff, float[] gate, int gateOff,
                              float[] x, int xOff, float[] stats, int statsOff, float[] gamma, int gammaOff,
                              float[] sums, int sumsOff, float[] dx, int dxOff, int rows, int channels) {
        BatchNormLoops.inputGrad(true, true, epsilon, training, dy, dyOff, gate, gateOff, x, xOff, stats, statsOff,
                gamma, gammaOff, null, 0, sums, sumsOff, dx, dxOff, rows, channels);
    }

    @Override
    public void batchNormParamGradUnderRelu(float epsilon, float[] dy, int dyOff, float[] x, int xOff, float[] stats,
                                            int statsOff, float[] gamma, int gammaOff, float[] beta, int betaOff,
                                            float[] out, int outOff, int rows, int channels) {
        BatchNormLoops.paramGrad(true, true, epsilon, dy, dyOff, null, 0, x, xOff, stats, statsOff, gamma, gammaOff, beta,
                betaOff, out, outOff, rows, channels);
    }

    @Override
    public void batchNormGradUnderRelu(float epsilon, boolean training, float[] dy, int dyOff, float[] x, int xOff,
                                       float[] stats, int statsOff, float[] gamma, int gammaOff, float[] beta,
                                       int betaOff, float[] sums, int sumsOff, float[] dx, int dxOff, int rows,
                                       int channels) {
        BatchNormLoops.inputGrad(true, true, epsilon, training, dy, dyOff, null, 0, x, xOff, stats, statsOff, gamma,
                gammaOff, beta, betaOff, sums, sumsOff, dx, dxOff, rows, channels);
    }

    @Override
    public void softmax(boolean log, float[] x, int xOff, float[] y, int yOff, int rows, int cols) {
        VectorSoftmax.forward(log, x, xOff, y, yOff, rows, cols);
    }

    @Override
    public void softmaxBackward(boolean log, float[] y, int yOff, float[] dy, int dyOff, float[] dx, int dxOff,
                                int rows, int cols) {
        VectorSoftmax.backward(log, y, yOff, dy, dyOff, dx, dxOff, rows, cols);
    }

    @Override
    public void gatherRows(float[] x, int xOff, float[] index, int indexOff, float[] out, int outOff, int rows,
                           int cols) {
        reference.gatherRows(x, xOff, index, indexOff, out, outOff, rows, cols);
    }

    @Override
    public void sparseSoftmaxCrossEntropy(float[] x, int xOff, float[] index, int indexOff, float[] probs,
                                          int probsOff, float[] loss, int lossOff, int rows, int cols) {
        VectorSoftmax.crossEntropy(x, xOff, index, indexOff, probs, probsOff, loss, lossOff, rows, cols);
    }

    @Override
    public void sparseSoftmaxCrossEntropyBackward(float[] probs, int probsOff, float[] index, int indexOff,
                                                  float[] dy, int dyOff, float[] dx, int dxOff, int rows, int cols) {
        VectorSoftmax.crossEntropyBackward(probs, probsOff, index, indexOff, dy, dyOff, dx, dxOff, rows, cols);
    }

    @Override
    public void scatterRows(float[] dy, int dyOff, float[] index, int indexOff, float[] dx, int dxOff, int rows,
                            int cols) {
        reference.scatterRows(dy, dyOff, index, indexOff, dx, dxOff, rows, cols);
    }

    @Override
    public void conv2d(ConvGeometry g, float[] x, int xOff, float[] w, int wOff, float[] y, int yOff) {
        VectorConv.conv2d(g, x, xOff, w, wOff, y, yOff);
    }

    @Override
    public void conv2dBiasActivation(ConvGeometry g, float[] x, int xOff, float[] w, int wOff, float[] bias,
                                     int biasOff, UnaryFn fn, float alpha, float[] y, int yOff) {
        VectorConv.conv2d(g, x, xOff, w, wOff, bias, biasOff, fn, alpha, y, yOff);
    }

    @Override
    public boolean poolsConvolutionInCache(ConvGeometry conv, UnaryFn fn, PoolGeometry pool) {
        return VectorConv.poolsInCache(conv, fn, pool);
    }

    @Override
    public void conv2dBiasActivationMaxPool(ConvGeometry conv, float[] x, int xOff, float[] w, int wOff,
                                            float[] bias, int biasOff, UnaryFn fn, float alpha, PoolGeometry pool,
                                            float[] y, int yOff, float[] cells, int cellsOff) {
        if (!VectorConv.poolsInCache(conv, fn, pool)) {
            throw new IllegalArgumentException("no in-cache pooling for " + conv + " then " + pool);
        }
        VectorConv.conv2dMaxPool(conv, x, xOff, w, wOff, bias, biasOff, fn, alpha, pool, y, yOff, cells, cellsOff);
    }

    @Override
    public boolean readsPooledGradient(ConvGeometry conv, PoolGeometry pool) {
        return PooledGradient.supports(pool) && (conv == null || VectorConv.filterGradientOfPooled(conv, pool));
    }

    @Override
    public void channelSumsOfPooledGradient(PoolGeometry pool, float[] cells, int cellsOff, float[] dy, int dyOff,
                                            float[] out, int outOff) {
        if (!readsPooledGradient(null, pool)) {
            throw new IllegalArgumentException("no pooled gradient read from cells for " + pool);
        }
        PooledChannelSums.sums(pool, cells, cellsOff, dy, dyOff, out, outOff);
    }

    @Override
    public void conv2dBackwardFilterOfPooledGradient(ConvGeometry conv, float[] x, int xOff, PoolGeometry pool,
                                                     float[] cells, int cellsOff, float[] pooledDy, int pooledDyOff,
                                                     float[] dw, int dwOff) {
        if (!readsPooledGradient(conv, pool)) {
            throw new IllegalArgumentException("no pooled gradient read from cells for " + conv + " and " + pool);
        }
        VectorConv.backwardFilter(conv, x, xOff, pooledDy, pooledDyOff, pool, cells, cellsOff, dw, dwOff);
    }

    @Override
    public void conv2dBackwardInput(ConvGeometry g, float[] dy, int dyOff, float[] w, int wOff, float[] dx,
                                    int dxOff) {
        VectorConv.backwardInput(g, dy, dyOff, w, wOff, dx, dxOff);
    }

    @Override
    public void conv2dBackwardFilter(ConvGeometry g, float[] x, int xOff, float[] dy, int dyOff, float[] dw,
                                     int dwOff) {
        VectorConv.backwardFilter(g, x, xOff, dy, dyOff, dw, dwOff);
    }

    @Override
    public void maxPool2d(PoolGeometry g, float[] x, int xOff, float[] y, int yOff, float[] cells, int cellsOff) {
        VectorPool.maxPool(g, x, xOff, y, yOff, cells, cellsOff);
    }

    @Override
    public void maxPool2dBackward(PoolGeometry g, float[] cells, int cellsOff, float[] dy, int dyOff, float[] dx,
                                  int dxOff) {
        VectorPool.maxPoolBackward(g, cells, cellsOff, dy, dyOff, null, 0f, null, 0, dx, dxOff);
    }

    @Override
    public void maxPool2dBackwardGated(PoolGeometry g, float[] cells, int cellsOff, float[] dy, int dyOff,
                                       BinaryFn fn, float alpha, float[] gate, int gateOff, float[] dx, int dxOff) {
        if (gate == null) {
            ScalarKernels.requireReluGradient(fn);
        }
        VectorPool.maxPoolBackward(g, cells, cellsOff, dy, dyOff, fn, alpha, gate, gateOff, dx, dxOff);
    }

    @Override
    public void avgPool2d(PoolGeometry g, float[] x, int xOff, float[] y, int yOff) {
        VectorPool.avgPool(g, x, xOff, y, yOff);
    }

    @Override
    public void avgPool2dBackward(PoolGeometry g, float[] dy, int dyOff, float[] dx, int dxOff) {
        VectorPool.avgPoolBackward(g, dy, dyOff, dx, dxOff);
    }

    @Override
    public void fill(float[] y, int yOff, int n, float value) {
        reference.fill(y, yOff, n, value);
    }

    @Override
    public void copy(float[] x, int xOff, float[] y, int yOff, int n) {
        reference.copy(x, xOff, y, yOff, n);
    }

    @Override
    public void transpose(float[] x, int xOff, float[] y, int yOff, int batch, int rows, int cols) {
        int tilesPerMatrix = VectorGemm.ceilDiv(rows, TILE);
        int tiles = batch * tilesPerMatrix;
        int grain = Math.max(1, VectorElementwise.GRAIN / Math.max(1, TILE * cols));
        if (Split.serial(tiles, grain)) {
            transposeTiles(x, xOff, y, yOff, rows, cols, 0, tiles);
        } else {
            TransposeArgs r = TransposeArgs.get();
            r.x = x;
            r.xOff = xOff;
            r.y = y;
            r.yOff = yOff;
            r.rows = rows;
            r.cols = cols;
            r.forRange(tiles, grain, (a, t0, t1) -> transposeTiles(a.x, a.xOff, a.y, a.yOff, a.rows, a.cols, t0, t1));
        }
    }

    /** Transposes bands of {@link #TILE} source rows, {@code TILE x TILE} blocks at a time. */
    private static void transposeTiles(float[] x, int xOff, float[] y, int yOff, int rows, int cols, int t0,
                                       int t1) {
        int tilesPerMatrix = VectorGemm.ceilDiv(rows, TILE);
        for (int t = t0; t < t1; t++) {
            int base = t / tilesPerMatrix * rows * cols;
            int r0 = t % tilesPerMatrix * TILE;
            int r1 = Math.min(rows, r0 + TILE);
            for (int c0 = 0; c0 < cols; c0 += TILE) {
                int c1 = Math.min(cols, c0 + TILE);
                for (int r = r0; r < r1; r++) {
                    for (int c = c0; c < c1; c++) {
                        y[yOff + base + c * rows + r] = x[xOff + base + r * cols + c];
                    }
                }
            }
        }
    }

    @Override
    public void dropout(float rate, long seed, float[] x, int xOff, float[] mask, int maskOff, float[] y, int yOff,
                        int n) {
        VectorDropout.dropout(rate, seed, x, xOff, mask, maskOff, y, yOff, n);
    }

    @Override
    public void randomNormal(float stddev, long seed, float[] y, int yOff, int n) {
        reference.randomNormal(stddev, seed, y, yOff, n);
    }

    @Override
    public void adamStep(float[] p, int pOff, float[] g, int gOff, float[] m, int mOff, float[] v, int vOff, int n,
                         float lrT, float beta1, float beta2, float epsHat, float decoupledDecay) {
        VectorOptimizers.adam(p, pOff, g, gOff, m, mOff, v, vOff, n, lrT, beta1, beta2, epsHat, decoupledDecay);
    }

    @Override
    public void sgdStep(float[] p, int pOff, float[] g, int gOff, float[] vel, int velOff, int n, float lr,
                        float momentum, boolean nesterov, float decay) {
        VectorOptimizers.sgd(p, pOff, g, gOff, vel, velOff, n, lr, momentum, nesterov, decay);
    }

    @Override
    public void rmspropStep(float[] p, int pOff, float[] g, int gOff, float[] ms, int msOff, int n, float lr,
                            float rho, float eps) {
        VectorOptimizers.rmsprop(p, pOff, g, gOff, ms, msOff, n, lr, rho, eps);
    }

    @Override
    public void adagradStep(float[] p, int pOff, float[] g, int gOff, float[] acc, int accOff, int n, float lr,
                            float eps, float decay) {
        VectorOptimizers.adagrad(p, pOff, g, gOff, acc, accOff, n, lr, eps, decay);
    }

    @Override
    public void adadeltaStep(float[] p, int pOff, float[] g, int gOff, float[] ag, int agOff, float[] ad, int adOff,
                             int n, float lr, float rho, float eps, float decay) {
        VectorOptimizers.adadelta(p, pOff, g, gOff, ag, agOff, ad, adOff, n, lr, rho, eps, decay);
    }

    @Override
    public void adamaxStep(float[] p, int pOff, float[] g, int gOff, float[] m, int mOff, float[] u, int uOff, int n,
                           float lrT, float beta1, float beta2, float eps, float decay) {
        VectorOptimizers.adamax(p, pOff, g, gOff, m, mOff, u, uOff, n, lrT, beta1, beta2, eps, decay);
    }

    @Override
    public void nadamStep(float[] p, int pOff, float[] g, int gOff, float[] m, int mOff, float[] v, int vOff, int n,
                          float mRate, float gRate, float vCorrection, float beta1, float beta2, float eps,
                          float decay) {
        VectorOptimizers.nadam(p, pOff, g, gOff, m, mOff, v, vOff, n, mRate, gRate, vCorrection, beta1, beta2, eps,
                decay);
    }

    @Override
    public void lionStep(float[] p, int pOff, float[] g, int gOff, float[] m, int mOff, int n, float lr, float beta1,
                         float beta2, float decay) {
        VectorOptimizers.lion(p, pOff, g, gOff, m, mOff, n, lr, beta1, beta2, decay);
    }

    @Override
    public void ftrlStep(float[] p, int pOff, float[] g, int gOff, float[] acc, int accOff, float[] lin, int linOff,
                         int n, float lr, float power, float l1, float twoL2, float shrinkage2, float decay) {
        VectorOptimizers.ftrl(p, pOff, g, gOff, acc, accOff, lin, linOff, n, lr, power, l1, twoL2, shrinkage2,
                decay);
    }

    @Override
    public void amsgradStep(float[] p, int pOff, float[] g, int gOff, float[] m, int mOff, float[] v, int vOff,
                            float[] vHat, int vHatOff, int n, float lrT, float beta1, float beta2, float epsHat,
                            float decay) {
        VectorOptimizers.amsgrad(p, pOff, g, gOff, m, mOff, v, vOff, vHat, vHatOff, n, lrT, beta1, beta2, epsHat,
                decay);
    }

    @Override
    public void rmspropFullStep(float[] p, int pOff, float[] g, int gOff, float[] ms, int msOff, float[] mom,
                                int momOff, float[] mg, int mgOff, int n, float lr, float rho, float momentum,
                                float eps, float decay) {
        VectorOptimizers.rmspropFull(p, pOff, g, gOff, ms, msOff, mom, momOff, mg, mgOff, n, lr, rho, momentum, eps,
                decay);
    }

    @Override
    public void attention(AttentionGeometry g, float[] q, int qOff, float[] k, int kOff, float[] v, int vOff,
                          float[] mask, int maskOff, float[] out, int outOff, float[] stats, int statsOff) {
        VectorAttention.forward(g, q, qOff, k, kOff, v, vOff, mask, maskOff, out, outOff, stats, statsOff);
    }

    @Override
    public void attentionBackward(AttentionGeometry g, float[] q, int qOff, float[] k, int kOff, float[] v, int vOff,
                                  float[] mask, int maskOff, float[] out, int outOff, float[] stats, int statsOff,
                                  float[] dOut, int dOutOff, float[] grads, int gradsOff) {
        VectorAttention.backward(g, q, qOff, k, kOff, v, vOff, mask, maskOff, out, outOff, stats, statsOff, dOut,
                dOutOff, grads, gradsOff);
    }

    /**
     * Splits the batch over the pool when there are at least as many entries as threads, each entry's product run
     * serially by {@link VectorGemm} (attention's many small per-head products: one region instead of one per
     * product); otherwise one product after another, each split as a plain gemm is. Both give gemm's bits.
     */
    @Override
    public void batchedGemm(boolean transA, boolean transB, int batch, int m, int n, int k, float[] a, int aOff,
                            int aStride, float[] b, int bOff, int bStride, float[] c, int cOff) {
        if (batch < Parallel.threads() || Split.serial(batch, 1)) {
            for (int i = 0; i < batch; i++) {
                gemmEntry(transA, transB, m, n, k, a, aOff + i * aStride, b, bOff + i * bStride, c, cOff + i * m * n);
            }
            return;
        }
        BatchGemmArgs g = BatchGemmArgs.get();
        g.transA = transA;
        g.transB = transB;
        g.m = m;
        g.n = n;
        g.k = k;
        g.a = a;
        g.aOff = aOff;
        g.aStride = aStride;
        g.b = b;
        g.bOff = bOff;
        g.bStride = bStride;
        g.c = c;
        g.cOff = cOff;
        g.forRange(batch, 1, Split.CHUNKS_PER_THREAD, BATCH_ENTRIES);
    }

    private static final RegionTask.Body<BatchGemmArgs> BATCH_ENTRIES = (g, i0, i1) -> {
        for (int i = i0; i < i1; i++) {
            gemmEntry(g.transA, g.transB, g.m, g.n, g.k, g.a, g.aOff + i * g.aStride, g.b, g.bOff + i * g.bStride,
                    g.c, g.cOff + i * g.m * g.n);
        }
    };

    /** One dense product of a batch, through this thread's {@link GemmArgs}. */
    private static void gemmEntry(boolean transA, boolean transB, int m, int n, int k, float[] a, int aOff, float[] b,
                                  int bOff, float[] c, int cOff) {
        VectorGemm.gemm(GemmArgs.get().product(transA, transB, m, n, k).a(a, aOff, transA ? m : k)
                .b(b, bOff, transB ? k : n).c(c, cOff, n));
    }

    /**
     * Runs of trailing axes left in place are copied a vector at a time; a swap of the last two axes alone is the
     * tiled batched {@link #transpose}; any other move of the last axis takes the scalar kernel.
     */
    @Override
    public void permute(float[] x, int xOff, int[] dims, int[] perm, float[] y, int yOff) {
        if (VectorPermute.permute(x, xOff, dims, perm, y, yOff)) {
            return;
        }
        int rank = dims.length;
        boolean lastTwoSwapped = rank >= 2 && perm[rank - 1] == rank - 2 && perm[rank - 2] == rank - 1;
        int batch = 1;
        for (int i = 0; lastTwoSwapped && i < rank - 2; i++) {
            lastTwoSwapped = perm[i] == i;
            batch *= dims[i];
        }
        if (lastTwoSwapped) {
            transpose(x, xOff, y, yOff, batch, dims[rank - 2], dims[rank - 1]);
        } else {
            reference.permute(x, xOff, dims, perm, y, yOff);
        }
    }

    @Override
    public void softmaxAlongAxis(boolean log, float[] x, int xOff, float[] y, int yOff, int outer, int length,
                                 int inner) {
        VectorSoftmaxAxis.forward(log, x, xOff, y, yOff, outer, length, inner);
    }

    @Override
    public void softmaxAlongAxisBackward(boolean log, float[] y, int yOff, float[] dy, int dyOff, float[] dx,
                                         int dxOff, int outer, int length, int inner) {
        VectorSoftmaxAxis.backward(log, y, yOff, dy, dyOff, dx, dxOff, outer, length, inner);
    }

    // Layer normalization: the scalar backend's loops (the JIT vectorizes them) split over the pool, with its bits.

    @Override
    public void layerNorm(float epsilon, float[] x, int xOff, float[] gamma, int gammaOff, float[] beta,
                          int betaOff, float[] y, int yOff, int rows, int cols) {
        LayerNormLoops.normalize(true, epsilon, x, xOff, gamma, gammaOff, beta, betaOff, y, yOff, rows, cols);
    }

    @Override
    public void layerNormParamGrad(float epsilon, float[] dy, int dyOff, float[] x, int xOff, float[] out,
                                   int outOff, int rows, int cols) {
        LayerNormLoops.paramGrad(true, epsilon, dy, dyOff, x, xOff, out, outOff, rows, cols);
    }

    @Override
    public void layerNormGrad(float epsilon, float[] dy, int dyOff, float[] x, int xOff, float[] gamma,
                              int gammaOff, float[] dx, int dxOff, int rows, int cols) {
        LayerNormLoops.inputGrad(true, epsilon, dy, dyOff, x, xOff, gamma, gammaOff, dx, dxOff, rows, cols);
    }

    // ---------------------------------------------------------------- embedding lookup

    @Override
    public void embeddingLookup(float[] table, int tableOff, int vocab, int dim, float[] ids, int idsOff, int count,
                                float[] out, int outOff) {
        VectorEmbedding.lookup(table, tableOff, vocab, dim, ids, idsOff, count, out, outOff);
    }

    @Override
    public void embeddingGrad(float[] dy, int dyOff, float[] ids, int idsOff, int count, float[] dTable,
                              int dTableOff, int vocab, int dim) {
        VectorEmbedding.gradient(dy, dyOff, ids, idsOff, count, dTable, dTableOff, vocab, dim);
    }

    @Override
    public void nonzeroMask(float[] ids, int idsOff, float[] out, int outOff, int n) {
        reference.nonzeroMask(ids, idsOff, out, outOff, n);
    }

    /** The recurrent products through this backend's gemm, the gate passes vectorized and split over rows. */
    @Override
    public void recurrentForward(RecurrentGeometry g, float[] x, int xOff, float[] w, int wOff, float[] u, int uOff,
                                 float[] bias, int biasOff, float[] mask, int maskOff, float[] init, int initOff,
                                 float[] state, int stateOff, float[] y, int yOff) {
        RecurrentLoops.forward(this, VectorRecurrentGates.INSTANCE, g, x, xOff, w, wOff, u, uOff, bias, biasOff,
                mask, maskOff, init, initOff, state, stateOff, y, yOff);
    }

    /** Backward through time with the vectorized gate passes. */
    @Override
    public void recurrentBackward(RecurrentGeometry g, float[] dy, int dyOff, float[] w, int wOff, float[] u,
                                  int uOff, float[] mask, int maskOff, float[] state, int stateOff,
                                  float[] scratch, int scratchOff, float[] out, int outOff, boolean inputGradient) {
        RecurrentLoops.backward(this, VectorRecurrentGates.INSTANCE, g, dy, dyOff, w, wOff, u, uOff, mask, maskOff,
                state, stateOff, scratch, scratchOff, out, outOff, inputGradient);
    }
}

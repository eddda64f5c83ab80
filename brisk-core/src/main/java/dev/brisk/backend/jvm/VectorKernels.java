package dev.brisk.backend.jvm;

import dev.brisk.backend.Kernels;
import dev.brisk.backend.RecurrentLoops;
import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.ConvGeometry;
import dev.brisk.ops.PoolGeometry;
import dev.brisk.ops.RecurrentGeometry;
import dev.brisk.ops.ReduceFn;
import dev.brisk.ops.UnaryFn;
import jdk.incubator.vector.FloatVector;

/**
 * The training backend ("jvm-vector"): the hot kernels on the {@code jdk.incubator.vector} API, the rest
 * delegated to {@link ScalarKernels}. Loading this class needs the JVM flag
 * {@code --add-modules jdk.incubator.vector}; {@link dev.brisk.backend.Backends} checks before it does.
 */
public final class VectorKernels implements Kernels {
    /** Touches the Vector API while this class initialises, so a JVM without it fails here, not mid-training. */
    static final int LANES = FloatVector.SPECIES_PREFERRED.length();
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
    public void unary(UnaryFn fn, float alpha, float[] x, int xOff, float[] y, int yOff, int n) {
        VectorElementwise.unary(fn, alpha, x, xOff, y, yOff, n);
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

    // Batch normalization: the scalar backend's loops (the JIT vectorizes them) split over the pool, with its bits.

    @Override
    public void batchNormStatistics(float[] x, int xOff, int rows, int channels, float[] out, int outOff) {
        BatchNormLoops.statistics(true, x, xOff, rows, channels, out, outOff);
    }

    @Override
    public void batchNorm(float epsilon, float[] x, int xOff, float[] stats, int statsOff, float[] gamma,
                          int gammaOff, float[] beta, int betaOff, float[] y, int yOff, int rows, int channels) {
        BatchNormLoops.normalize(true, epsilon, x, xOff, stats, statsOff, gamma, gammaOff, beta, betaOff, y, yOff,
                rows, channels);
    }

    @Override
    public void batchNormParamGrad(float epsilon, float[] dy, int dyOff, float[] x, int xOff, float[] stats,
                                   int statsOff, float[] out, int outOff, int rows, int channels) {
        BatchNormLoops.paramGrad(true, epsilon, dy, dyOff, x, xOff, stats, statsOff, out, outOff, rows, channels);
    }

    @Override
    public void batchNormGrad(float epsilon, boolean training, float[] dy, int dyOff, float[] x, int xOff,
                              float[] stats, int statsOff, float[] gamma, int gammaOff, float[] sums, int sumsOff,
                              float[] dx, int dxOff, int rows, int channels) {
        BatchNormLoops.inputGrad(true, epsilon, training, dy, dyOff, x, xOff, stats, statsOff, gamma, gammaOff,
                sums, sumsOff, dx, dxOff, rows, channels);
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
        reference.dropout(rate, seed, x, xOff, mask, maskOff, y, yOff, n);
    }

    @Override
    public void adamStep(float[] p, int pOff, float[] g, int gOff, float[] m, int mOff, float[] v, int vOff, int n,
                         float lrT, float beta1, float beta2, float epsHat, float decoupledDecay) {
        VectorOptimizers.adam(p, pOff, g, gOff, m, mOff, v, vOff, n, lrT, beta1, beta2, epsHat, decoupledDecay);
    }

    @Override
    public void sgdStep(float[] p, int pOff, float[] g, int gOff, float[] vel, int velOff, int n, float lr,
                        float momentum, boolean nesterov) {
        VectorOptimizers.sgd(p, pOff, g, gOff, vel, velOff, n, lr, momentum, nesterov);
    }

    @Override
    public void rmspropStep(float[] p, int pOff, float[] g, int gOff, float[] ms, int msOff, int n, float lr,
                            float rho, float eps) {
        VectorOptimizers.rmsprop(p, pOff, g, gOff, ms, msOff, n, lr, rho, eps);
    }

    /** The recurrent products through this backend's gemm, the gate passes vectorized and split over rows. */
    @Override
    public void recurrentForward(RecurrentGeometry g, float[] x, int xOff, float[] w, int wOff, float[] u, int uOff,
                                 float[] bias, int biasOff, float[] state, int stateOff, float[] y, int yOff,
                                 boolean returnSequences) {
        RecurrentLoops.forward(this, VectorRecurrentGates.INSTANCE, g, x, xOff, w, wOff, u, uOff, bias, biasOff,
                state, stateOff, y, yOff, returnSequences);
    }

    /** Backward through time with the vectorized gate passes. */
    @Override
    public void recurrentBackward(RecurrentGeometry g, float[] dy, int dyOff, boolean returnSequences,
                                  float[] w, int wOff, float[] u, int uOff, float[] state, int stateOff,
                                  float[] scratch, int scratchOff, float[] out, int outOff, boolean inputGradient) {
        RecurrentLoops.backward(this, VectorRecurrentGates.INSTANCE, g, dy, dyOff, returnSequences, w, wOff, u,
                uOff, state, stateOff, scratch, scratchOff, out, outOff, inputGradient);
    }
}

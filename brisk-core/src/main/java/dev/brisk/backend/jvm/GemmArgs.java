package dev.brisk.backend.jvm;

import dev.brisk.ops.BinaryFn;
import dev.brisk.ops.UnaryFn;

/**
 * One product {@code C (+)= op(A) op(B)} with its fused bias and activation, as {@link VectorGemm#gemm} takes it,
 * and how a parallel call splits C into blocks. A caller fills this thread's instance through the setters, which
 * return it, and passes it once:
 * {@code VectorGemm.gemm(GemmArgs.get().product(false, false, m, n, k).a(x, 0, k).b(w, 0, n).c(y, 0, n))}.
 * {@link #product} starts a new product and resets the optional parts (accumulation, the epilogue), so nothing of
 * an earlier product carries over; gemm drops the array references when it returns.
 *
 * <p>Besides starting regions (see {@link RegionTask}), a thread inside a region fills its own instance for the
 * serial products of its chunks (a convolution's chunk of output rows). That is safe: no region reads another
 * thread's instance except gemm's own, whose chunks only read it and start no product.
 */
final class GemmArgs extends RegionTask<GemmArgs> {
    boolean transA;
    boolean transB;
    /** Add the product to C rather than overwrite it. */
    boolean accumulate;
    /** op(A) is {@code m x k}, op(B) {@code k x n}. */
    int m;
    int n;
    int k;
    float[] a;
    int aOff;
    int lda;
    float[] b;
    int bOff;
    int ldb;
    float[] c;
    int cOff;
    int ldc;
    /** The epilogue {@code C = fn(C + bias[j])}: a null {@code bias} or {@code fn} skips that part. */
    float[] bias;
    int biasOff;
    UnaryFn fn;
    float alpha;
    /**
     * The epilogue {@code C = binary(C, X)} (or {@code binary(X, C)} when not {@code productFirst}) with an operand
     * X laid out as C (row stride {@code ldc}), after the bias and activation; a null {@code binary} skips it.
     */
    BinaryFn binary;
    float binaryAlpha;
    /**
     * Where the activation's output goes, laid out as C, when C keeps the pre-activation {@code C + bias[j]} (for a
     * gradient that reads it); null: the activation is applied to C in place.
     */
    float[] activated;
    int activatedOff;
    float[] operand;
    int operandOff;
    boolean productFirst;
    /** The grid split: C's register tiles down and across, and how many groups of them each way. */
    int rowTiles;
    int colTiles;
    int rowGroups;
    int colGroups;

    /** This thread's instance. */
    static GemmArgs get() {
        return Scratch.get().gemmArgs();
    }

    /** Starts {@code C = op(A) op(B)} of {@code m x n}, depth {@code k}: no accumulation, no epilogue. */
    GemmArgs product(boolean transA, boolean transB, int m, int n, int k) {
        this.transA = transA;
        this.transB = transB;
        this.m = m;
        this.n = n;
        this.k = k;
        this.accumulate = false;
        this.bias = null;
        this.biasOff = 0;
        this.fn = null;
        this.alpha = 0f;
        this.binary = null;
        this.binaryAlpha = 0f;
        this.activated = null;
        this.activatedOff = 0;
        this.operand = null;
        this.operandOff = 0;
        this.productFirst = true;
        return this;
    }

    /** The left operand: {@code A[i][p]} (or {@code A[p][i]} transposed) at {@code a[aOff + i * lda + p]}. */
    GemmArgs a(float[] a, int aOff, int lda) {
        this.a = a;
        this.aOff = aOff;
        this.lda = lda;
        return this;
    }

    /** The right operand, laid out as the left one. */
    GemmArgs b(float[] b, int bOff, int ldb) {
        this.b = b;
        this.bOff = bOff;
        this.ldb = ldb;
        return this;
    }

    /** The result, {@code ldc} floats between rows. */
    GemmArgs c(float[] c, int cOff, int ldc) {
        this.c = c;
        this.cOff = cOff;
        this.ldc = ldc;
        return this;
    }

    /** Whether the product is added to C. */
    GemmArgs accumulate(boolean accumulate) {
        this.accumulate = accumulate;
        return this;
    }

    /** The epilogue {@code C = fn(C + bias[biasOff + j])}; a null {@code bias} or {@code fn} skips that part. */
    GemmArgs epilogue(float[] bias, int biasOff, UnaryFn fn, float alpha) {
        this.bias = bias;
        this.biasOff = biasOff;
        this.fn = fn;
        this.alpha = alpha;
        return this;
    }

    /**
     * The epilogue {@code C = fn(C, X)} ({@code fn(X, C)} when not {@code productFirst}), X at
     * {@code operand[operandOff + i * ldc + j]}, applied after any bias and activation.
     */
    GemmArgs binary(BinaryFn fn, float alpha, float[] operand, int operandOff, boolean productFirst) {
        this.binary = fn;
        this.binaryAlpha = alpha;
        this.operand = operand;
        this.operandOff = operandOff;
        this.productFirst = productFirst;
        return this;
    }

    /** The activation's output goes to {@code y} (laid out as C), and C keeps the pre-activation. */
    GemmArgs activated(float[] y, int yOff) {
        this.activated = y;
        this.activatedOff = yOff;
        return this;
    }

    @Override
    void clearReferences() {
        activated = null;
        operand = null;
        binary = null;
        a = null;
        b = null;
        c = null;
        bias = null;
        fn = null;
    }
}

package dev.brisk.bench;

import dev.brisk.backend.Backends;
import dev.brisk.backend.Kernels;
import dev.brisk.ops.AttentionGeometry;
import dev.brisk.ops.BinaryFn;
import dev.brisk.parallel.ThreadBudget;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * W4's causal attention (64 sequences of 128 tokens, 4 heads of 32) as the fused kernels
 * ({@link Kernels#attention} and its backward) and as the calls the unfused graph makes: permutes of q, k and v to
 * {@code [B, H, T, D]}, the scores' batched product, the causal mask's add, softmax, the values' product and the
 * permute back; backward the permute of dO, four batched products, softmax's gradient and three permutes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules=jdk.incubator.vector"})
public class AttentionBenchmark {
    private static final int B = 64;
    private static final int T = 128;
    private static final int H = 4;
    private static final int D = 32;
    private static final int BH = B * H;
    private static final int[] SPLIT = {B, T, H, D};
    private static final int[] MERGED = {B, H, T, D};
    private static final int[] HEADS_FIRST = {0, 2, 1, 3};
    private static final int[] SCORES = {BH, T, T};
    private static final int[] FULL = {T * T, T, 1};
    private static final int[] MASK = {0, T, 1};

    @Param({"1", "2"})
    public int threads;

    private final Kernels kernels = Backends.get();
    private final AttentionGeometry geometry = new AttentionGeometry(B, T, T, H, D, D, true, 0);
    private float[] q;
    private float[] k;
    private float[] v;
    private float[] dOut;
    private float[] out;
    private float[] stats;
    private float[] grads;
    private float[] causal;
    private float[] qh;
    private float[] kh;
    private float[] vh;
    private float[] dh;
    private float[] scores;
    private float[] probs;
    private float[] dScores;
    private float[] a;
    private float[] b;
    private float[] c;

    @Setup
    public void setUp() {
        SplittableRandom r = new SplittableRandom(1);
        int size = B * T * H * D;
        q = BenchArrays.random(r, size);
        k = BenchArrays.random(r, size);
        v = BenchArrays.random(r, size);
        dOut = BenchArrays.random(r, size);
        out = new float[size];
        stats = new float[BH * T * 2];
        grads = new float[3 * size];
        causal = new float[T * T];
        for (int i = 0; i < T; i++) {
            for (int j = i + 1; j < T; j++) {
                causal[i * T + j] = -1e9f;
            }
        }
        qh = new float[size];
        kh = new float[size];
        vh = new float[size];
        dh = new float[size];
        a = new float[size];
        b = new float[size];
        c = new float[size];
        scores = new float[BH * T * T];
        probs = new float[BH * T * T];
        dScores = new float[BH * T * T];
        ThreadBudget.set(threads);
        kernels.attention(geometry, q, 0, k, 0, v, 0, null, 0, out, 0, stats, 0);
        unfusedForward();
    }

    @TearDown
    public void tearDown() {
        ThreadBudget.reset();
    }

    @Benchmark
    public float[] fusedForward() {
        kernels.attention(geometry, q, 0, k, 0, v, 0, null, 0, out, 0, stats, 0);
        return out;
    }

    @Benchmark
    public float[] fusedBackward() {
        kernels.attentionBackward(geometry, q, 0, k, 0, v, 0, null, 0, out, 0, stats, 0, dOut, 0, grads, 0);
        return grads;
    }

    @Benchmark
    public float[] unfusedForward() {
        kernels.permute(q, 0, SPLIT, HEADS_FIRST, qh, 0);
        kernels.permute(k, 0, SPLIT, HEADS_FIRST, kh, 0);
        kernels.permute(v, 0, SPLIT, HEADS_FIRST, vh, 0);
        kernels.batchedGemm(false, true, BH, T, T, D, qh, 0, T * D, kh, 0, T * D, scores, 0);
        kernels.binary(BinaryFn.ADD, 0f, scores, 0, FULL, causal, 0, MASK, scores, 0, SCORES);
        kernels.softmax(false, scores, 0, probs, 0, BH * T, T);
        kernels.batchedGemm(false, false, BH, T, D, T, probs, 0, T * T, vh, 0, T * D, a, 0);
        kernels.permute(a, 0, MERGED, HEADS_FIRST, out, 0);
        return out;
    }

    @Benchmark
    public float[] unfusedBackward() {
        kernels.permute(dOut, 0, SPLIT, HEADS_FIRST, dh, 0);
        kernels.batchedGemm(true, false, BH, T, D, T, probs, 0, T * T, dh, 0, T * D, a, 0);
        kernels.batchedGemm(false, true, BH, T, T, D, dh, 0, T * D, vh, 0, T * D, scores, 0);
        kernels.softmaxBackward(false, probs, 0, scores, 0, dScores, 0, BH * T, T);
        kernels.batchedGemm(false, false, BH, T, D, T, dScores, 0, T * T, kh, 0, T * D, b, 0);
        kernels.batchedGemm(true, false, BH, T, D, T, dScores, 0, T * T, qh, 0, T * D, c, 0);
        int size = B * T * H * D;
        kernels.permute(b, 0, MERGED, HEADS_FIRST, grads, 0);
        kernels.permute(c, 0, MERGED, HEADS_FIRST, grads, size);
        kernels.permute(a, 0, MERGED, HEADS_FIRST, grads, 2 * size);
        return grads;
    }
}

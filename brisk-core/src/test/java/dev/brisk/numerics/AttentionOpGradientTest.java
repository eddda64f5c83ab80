package dev.brisk.numerics;

import static dev.brisk.numerics.GradCheck.gaussian;

import dev.brisk.backend.Kernels;
import dev.brisk.ops.Node;
import dev.brisk.tensor.Tensor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Finite-difference checks (and compiled == eager, see {@link GradCheck}) of the fused ATTENTION op with respect to
 * q, k and v: causal and not, with a full or a one-row additive mask and without, query and key lengths that
 * differ, value depth unlike key depth, on both backends. Sizes cross the vector kernel's register tiles (two
 * vectors of columns, four rows) and its 32-row blocks, and leave tails.
 */
class AttentionOpGradientTest {
    private static void check(Kernels k, String what, int b, int t, int s, int h, int d, int dv, boolean causal,
                              int maskRows, long seed) {
        Tensor mask = maskRows == 0 ? null : padding(b, maskRows, s, seed);
        GradCheck.op(k, what, (g, xs) -> {
            Node m = mask == null ? null : g.constant(mask);
            return g.attention(xs.get(0), xs.get(1), xs.get(2), m, causal);
        }, gaussian(seed, 0.7, b, t, h, d), gaussian(seed + 1, 0.7, b, s, h, d), gaussian(seed + 2, 1, b, s, h, dv));
    }

    /** Keras' additive mask: -1e9 on some keys (never a row's first), 0 elsewhere. */
    static Tensor padding(int b, int rows, int s, long seed) {
        Tensor m = Tensor.zeros(b, rows, s);
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        for (int i = 0; i < m.size(); i++) {
            if (i % s != 0 && r.nextDouble() < 0.3) {
                m.set(i, -1e9f);
            }
        }
        return m;
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void smallHeadsWithTails(String backend) {
        Kernels k = GradCheck.kernels(backend);
        check(k, "attention", 2, 5, 7, 2, 3, 4, false, 0, 10);
        check(k, "causal attention T < S", 2, 5, 7, 2, 3, 4, true, 0, 20);
        check(k, "causal attention T > S", 1, 7, 4, 3, 2, 5, true, 0, 30);
        check(k, "attention with a [B, T, S] mask", 2, 6, 5, 2, 4, 3, false, 6, 40);
        check(k, "attention with a [B, 1, S] mask", 2, 6, 5, 2, 4, 3, false, 1, 50);
        check(k, "causal attention with a mask", 2, 6, 6, 1, 3, 3, true, 6, 60);
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "scalar"})
    void headsWiderThanTheRegisterTiles(String backend) {
        Kernels k = GradCheck.kernels(backend);
        // 37 query rows: a 32-row block and a short one; depths of two and a half vectors of 16 lanes.
        check(k, "causal attention, blocks", 1, 37, 37, 2, 40, 24, true, 0, 70);
        check(k, "masked attention, blocks", 1, 37, 35, 1, 24, 40, false, 37, 80);
    }
}

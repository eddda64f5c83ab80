package dev.brisk.backend.jvm;

import static dev.brisk.backend.jvm.Arrays2.assertClose;
import static dev.brisk.backend.jvm.Arrays2.uniform;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.brisk.ops.AttentionGeometry;
import dev.brisk.parallel.ThreadBudget;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The fused attention kernels of the vector backend against the scalar reference, forward and backward: causal and
 * not, with a full mask, a one-row mask and none, a row the mask hides throughout, lengths and depths that are not
 * multiples of the register tile or the row block, non-zero offsets; and the same bits on one and two threads.
 */
class VectorAttentionTest {
    private static final ScalarKernels SCALAR = new ScalarKernels();
    private static final VectorKernels VECTOR = new VectorKernels();
    private final Random random = new Random(20261207);

    @Test
    void matchesTheReferenceAndTheThreadCountChangesNoBits() {
        int[][] sizes = {{2, 5, 7, 2, 3, 4}, {1, 37, 37, 2, 40, 24}, {2, 64, 64, 4, 32, 32}, {1, 33, 70, 3, 16, 8},
            {3, 9, 4, 1, 17, 33}};
        for (int[] s : sizes) {
            for (int variant = 0; variant < 6; variant++) {
                boolean causal = variant % 2 == 1;
                int maskRows = switch (variant / 2) {
                    case 0 -> 0;
                    case 1 -> s[1];
                    default -> 1;
                };
                check(new AttentionGeometry(s[0], s[1], s[2], s[3], s[4], s[5], causal, maskRows));
            }
        }
    }

    private void check(AttentionGeometry g) {
        int outSize = g.batch() * g.queries() * g.heads() * g.valueDepth();
        int vSize = g.batch() * g.keys() * g.heads() * g.valueDepth();
        float[] q = uniform(random, 3 + g.querySize(), -1.5f, 1.5f);
        float[] k = uniform(random, 1 + g.keySize(), -1.5f, 1.5f);
        float[] v = uniform(random, 2 + vSize, -1, 1);
        float[] dOut = uniform(random, 4 + outSize, -1, 1);
        float[] mask = g.maskRows() == 0 ? null : new float[5 + g.batch() * g.maskRows() * g.keys()];
        if (mask != null) {
            for (int i = 5; i < mask.length; i++) {
                mask[i] = random.nextInt(4) == 0 ? -1e9f : 0f;
            }
            // The first row of the first batch entry hidden throughout: uniform probabilities, as Keras gives.
            java.util.Arrays.fill(mask, 5, 5 + g.keys(), -1e9f);
        }
        int gradSize = g.querySize() + g.keySize() + vSize;
        float[] out = new float[6 + outSize];
        float[] stats = new float[2 + g.batch() * g.heads() * g.queries() * 2];
        float[] grads = new float[7 + gradSize];
        SCALAR.attention(g, q, 3, k, 1, v, 2, mask, 5, out, 6, stats, 2);
        SCALAR.attentionBackward(g, q, 3, k, 1, v, 2, mask, 5, out, 6, stats, 2, dOut, 4, grads, 7);
        float[][] first = null;
        try {
            for (int threads : new int[] {1, 2}) {
                ThreadBudget.set(threads);
                float[] vOut = new float[out.length];
                float[] vStats = new float[stats.length];
                float[] vGrads = new float[grads.length];
                VECTOR.attention(g, q, 3, k, 1, v, 2, mask, 5, vOut, 6, vStats, 2);
                VECTOR.attentionBackward(g, q, 3, k, 1, v, 2, mask, 5, vOut, 6, vStats, 2, dOut, 4, vGrads, 7);
                String what = g + " on " + threads + " thread(s)";
                assertClose(what + ": output", out, vOut, 1e-4f, 1e-5f);
                assertClose(what + ": gradients", grads, vGrads, 1e-3f, 1e-4f);
                if (first == null) {
                    first = new float[][] {vOut, vGrads};
                } else {
                    assertArrayEquals(first[0], vOut, what + ": output bits");
                    assertArrayEquals(first[1], vGrads, what + ": gradient bits");
                }
            }
        } finally {
            ThreadBudget.reset();
        }
    }
}

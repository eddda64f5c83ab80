package dev.brisk.backend.jvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The Vector API embedding kernels give the scalar reference's bits; ids are checked against the vocabulary. */
class EmbeddingKernelsTest {
    private final ScalarKernels scalar = new ScalarKernels();
    private final VectorKernels vector = new VectorKernels();

    private static float[] ids(int[] values) {
        float[] f = new float[values.length];
        for (int i = 0; i < f.length; i++) {
            f[i] = Float.intBitsToFloat(values[i]);
        }
        return f;
    }

    private static float[] random(long seed, int n) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) r.nextGaussian();
        }
        return v;
    }

    @Test
    void vectorKernelsGiveTheScalarBits() {
        SplittableRandom r = new SplittableRandom(3);
        for (int dim : new int[] {1, 7, 16, 33, 100}) {
            int vocab = 11;
            int count = 57;
            int[] idValues = new int[count];
            for (int i = 0; i < count; i++) {
                idValues[i] = r.nextInt(vocab); // many repeats: the order of the sums matters
            }
            float[] idBits = ids(idValues);
            float[] table = random(dim, vocab * dim + 3);
            float[] a = new float[count * dim + 2];
            float[] b = new float[count * dim + 2];
            scalar.embeddingLookup(table, 3, vocab, dim, idBits, 0, count, a, 2);
            vector.embeddingLookup(table, 3, vocab, dim, idBits, 0, count, b, 2);
            assertArrayEquals(a, b, "lookup dim " + dim);
            assertEquals(table[3 + idValues[4] * dim], a[2 + 4 * dim]);
            float[] dy = random(dim + 100, count * dim);
            float[] ga = random(1, vocab * dim + 1); // overwritten, not accumulated into
            float[] gb = random(2, vocab * dim + 1);
            scalar.embeddingGrad(dy, 0, idBits, 0, count, ga, 1, vocab, dim);
            vector.embeddingGrad(dy, 0, idBits, 0, count, gb, 1, vocab, dim);
            for (int i = 1; i < ga.length; i++) {
                assertEquals(Float.floatToRawIntBits(ga[i]), Float.floatToRawIntBits(gb[i]), "grad dim " + dim);
            }
        }
    }

    @Test
    void idsOutsideTheVocabularyAreRefused() {
        float[] table = new float[10];
        float[] out = new float[20];
        for (var k : new dev.brisk.backend.Kernels[] {scalar, vector}) {
            for (int bad : new int[] {5, -1, Integer.MAX_VALUE}) {
                String m = assertThrows(IllegalArgumentException.class,
                        () -> k.embeddingLookup(table, 0, 5, 2, ids(new int[] {0, bad}), 0, 2, out, 0)).getMessage();
                assertTrue(m.contains("token id " + bad) && m.contains("position 1") && m.contains("[0, 5)"), m);
                assertThrows(IllegalArgumentException.class,
                        () -> k.embeddingGrad(out, 0, ids(new int[] {bad}), 0, 1, table, 0, 5, 2));
            }
        }
    }

    @Test
    void nonzeroMaskReadsIntBits() {
        float[] mask = new float[4];
        vector.nonzeroMask(ids(new int[] {0, 1, -1, 1 << 30}), 0, mask, 0, 4);
        assertArrayEquals(new float[] {0, 1, 1, 1}, mask);
    }
}

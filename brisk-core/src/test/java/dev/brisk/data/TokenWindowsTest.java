package dev.brisk.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Windows of a token stream and their next-token targets, as samples, a pipeline and a dataset. */
class TokenWindowsTest {
    private static final int[] STREAM = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19};

    @Test
    void aWindowsTargetIsItsInputShiftedByOne() {
        TokenWindows w = TokenWindows.of(STREAM, 4, 4);
        // Starts 0 and 4; a start at 8 would need tokens up to index 12.
        assertEquals(2, w.size());
        Sample second = w.window(1);
        assertEquals(DType.INT32, second.features().dtype());
        assertEquals(DType.FLOAT32, second.label().dtype());
        assertArrayEquals(new int[] {14, 15, 16, 17}, second.features().toIntArray());
        assertArrayEquals(new float[] {15, 16, 17, 18}, values(second.label()));
        assertThrows(IndexOutOfBoundsException.class, () -> w.window(2));
    }

    @Test
    void aSmallerStrideGivesOverlappingWindows() {
        TokenWindows w = TokenWindows.of(STREAM, 4, 2);
        assertEquals(3, w.size()); // starts 0, 2, 4; the last target ends at token 9
        assertArrayEquals(new int[] {14, 15, 16, 17}, w.window(2).features().toIntArray());
        assertEquals(6, TokenWindows.of(STREAM, 4, 1).size());
        assertEquals(1, TokenWindows.of(STREAM, 9, 1).size());
        assertEquals(0, TokenWindows.of(STREAM, 10, 1).size());
    }

    @Test
    void theDatasetAndThePipelineHoldTheSameWindows() {
        TokenWindows w = TokenWindows.of(STREAM, 3, 2);
        InMemoryDataset d = w.toDataset();
        assertEquals(Shape.of(4, 3), d.features().shape());
        assertEquals(DType.INT32, d.features().dtype());
        List<Sample> samples = w.pipeline().toList();
        assertEquals(w.size(), samples.size());
        for (int i = 0; i < samples.size(); i++) {
            assertArrayEquals(samples.get(i).features().toIntArray(), d.features().slice(i, i + 1).toIntArray());
            assertArrayEquals(values(samples.get(i).label()), values(d.labels().slice(i, i + 1)));
        }
        Batch b = w.pipeline().batch(4).toList().get(0);
        assertEquals(DType.INT32, b.features().dtype());
        assertArrayEquals(d.features().toIntArray(), b.features().toIntArray());
    }

    @Test
    void badArgumentsAreRefusedByName() {
        assertThrows(IllegalArgumentException.class, () -> TokenWindows.of(STREAM, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> TokenWindows.of(STREAM, 2, 0));
        IllegalArgumentException big = assertThrows(IllegalArgumentException.class,
                () -> TokenWindows.of(new int[] {1, 2, 1 << 24}, 1, 1));
        assertTrue(big.getMessage().contains("token id 16777216 at position 2"), big.getMessage());
        assertThrows(IllegalArgumentException.class, () -> TokenWindows.of(new int[] {-1, 2}, 1, 1));
    }

    private static float[] values(Tensor t) {
        float[] out = new float[t.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = t.get(i);
        }
        return out;
    }
}

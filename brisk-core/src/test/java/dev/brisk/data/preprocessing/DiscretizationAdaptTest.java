package dev.brisk.data.preprocessing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Discretization#adapt} against Keras 3's own quantile code run on the same batches
 * ({@code tools/fixtures/make_discretization_fixtures.py} copies Keras' {@code summarize}, {@code merge_summaries},
 * {@code compress_summary} and {@code get_bin_boundaries}): the boundaries must be equal bit for bit.
 */
class DiscretizationAdaptTest {
    @Test
    void boundariesAreKerasOwnBitForBit() throws IOException {
        JsonNode cases;
        try (InputStream in = getClass().getResourceAsStream("/discretization/adapt.json")) {
            cases = new ObjectMapper().readTree(in).get("cases");
        }
        assertTrue(cases.size() >= 7, "cases: " + cases.size());
        for (JsonNode c : cases) {
            String name = c.get("name").asText();
            List<Tensor> batches = new ArrayList<>();
            for (JsonNode b : c.get("batches")) {
                batches.add(Tensor.of(floats(b), b.size()));
            }
            Discretization d = Discretization.adapt(batches, c.get("num_bins").asInt(), c.get("epsilon").asDouble());
            assertArrayEquals(floats(c.get("boundaries")), d.binBoundaries(), name + ": boundaries");
            for (int i = 0; i < batches.size(); i++) {
                JsonNode bins = c.get("bins").get(i);
                int[] expected = new int[bins.size()];
                for (int j = 0; j < expected.length; j++) {
                    expected[j] = bins.get(j).asInt();
                }
                assertArrayEquals(expected, d.apply(batches.get(i)).toIntArray(), name + ": bins of batch " + i);
            }
        }
    }

    @Test
    void kerasDocumentationExample() {
        // Discretization(num_bins=4, epsilon=0.01).adapt(x) then x gives [[0, 2, 3, 2], [1, 3, 3, 1]].
        Tensor x = Tensor.of(new float[] {-1.5f, 1.0f, 3.4f, .5f, 0.0f, 3.0f, 1.3f, 0.0f}, 2, 4);
        Discretization d = Discretization.adapt(List.of(x), 4);
        assertArrayEquals(new float[] {0f, 0.5f, 1.3f}, d.binBoundaries());
        assertArrayEquals(new int[] {0, 2, 3, 2, 1, 3, 3, 1}, d.apply(x).toIntArray());
        // INT32 data adapts as its float values.
        Discretization ints = Discretization.adapt(List.of(Tensor.ofInts(new int[] {4, 1, 3, 2}, 4)), 2);
        assertArrayEquals(new float[] {2f}, ints.binBoundaries());
        assertArrayEquals(new int[] {0, 1, 1, 1}, ints.apply(Tensor.ofInts(new int[] {1, 2, 3, 4}, 4)).toIntArray());
    }

    @Test
    void badDataIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Discretization.adapt(List.of(Tensor.of(new float[] {1, 2}, 2),
                        Tensor.of(new float[] {0, Float.NaN}, 2)), 3));
        assertTrue(e.getMessage().contains("value 1 of batch 1 is NaN"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Discretization.adapt(List.of(), 3));
        assertTrue(e.getMessage().contains("no values"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> Discretization.adapt(List.of(Tensor.of(new float[] {1}, 1)), 0));
        assertThrows(IllegalArgumentException.class,
                () -> Discretization.adapt(List.of(Tensor.of(new float[] {1}, 1)), 2, 0.0));
    }

    private static float[] floats(JsonNode array) {
        float[] out = new float[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = (float) array.get(i).asDouble();
        }
        return out;
    }

    @Test
    void interpolationFollowsNumpy() {
        double[] xp = {0.25, 0.5, 1.0};
        double[] fp = {10, 20, 40};
        assertEquals(10, QuantileSummary.interp(0.1, xp, fp));
        assertEquals(40, QuantileSummary.interp(1.5, xp, fp));
        assertEquals(20, QuantileSummary.interp(0.5, xp, fp));
        assertEquals(30, QuantileSummary.interp(0.75, xp, fp), 1e-12);
    }
}

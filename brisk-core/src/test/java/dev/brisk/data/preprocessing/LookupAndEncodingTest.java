package dev.brisk.data.preprocessing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.data.Pipeline;
import dev.brisk.data.Sample;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Discretization}, {@link CategoryEncoding} and {@link IntegerLookup} against the examples of Keras 3's
 * documentation of those layers (their inputs and the outputs Keras gives, written out here).
 */
class LookupAndEncodingTest {
    @Test
    void discretizationBinsAsKerasDocumentationShows() {
        // keras.layers.Discretization(bin_boundaries=[0., 1., 2.]) on
        // [[-1.5, 1.0, 3.4, .5], [0.0, 3.0, 1.3, 0.0]] gives [[0, 2, 3, 1], [1, 3, 2, 1]].
        Tensor x = Tensor.of(new float[] {-1.5f, 1.0f, 3.4f, .5f, 0.0f, 3.0f, 1.3f, 0.0f}, 2, 4);
        Tensor bins = new Discretization(0f, 1f, 2f).apply(x);
        assertEquals(DType.INT32, bins.dtype());
        assertEquals(Shape.of(2, 4), bins.shape());
        assertArrayEquals(new int[] {0, 2, 3, 1, 1, 3, 2, 1}, bins.toIntArray());
        assertThrows(IllegalArgumentException.class, () -> new Discretization(1f, 1f));
        assertThrows(IllegalArgumentException.class,
                () -> new Discretization(0f).apply(Tensor.of(new float[] {Float.NaN}, 1)));
    }

    @Test
    void categoryEncodingModesAsKerasDocumentationShows() {
        // CategoryEncoding(num_tokens=4, output_mode="one_hot")([3, 2, 0, 1])
        Tensor oneHot = new CategoryEncoding(4, CategoryEncoding.Mode.ONE_HOT)
                .apply(Tensor.of(new float[] {3, 2, 0, 1}, 4));
        assertEquals(Shape.of(4, 4), oneHot.shape());
        assertArrayEquals(new float[] {0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0}, oneHot.toArray());
        // ... output_mode="multi_hot")([[0, 1], [0, 0], [1, 2], [3, 1]])
        Tensor pairs = Tensor.ofInts(new int[] {0, 1, 0, 0, 1, 2, 3, 1}, 4, 2);
        Tensor multi = new CategoryEncoding(4, CategoryEncoding.Mode.MULTI_HOT).apply(pairs);
        assertEquals(Shape.of(4, 4), multi.shape());
        assertArrayEquals(new float[] {1, 1, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 1}, multi.toArray());
        // ... output_mode="count")(the same)
        Tensor count = new CategoryEncoding(4, CategoryEncoding.Mode.COUNT).apply(pairs);
        assertArrayEquals(new float[] {1, 1, 0, 0, 2, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 1}, count.toArray());
        // A last axis of 1 is replaced in one-hot mode.
        assertEquals(Shape.of(4, 4), new CategoryEncoding(4, CategoryEncoding.Mode.ONE_HOT)
                .apply(Tensor.of(new float[] {3, 2, 0, 1}, 4, 1)).shape());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new CategoryEncoding(4, CategoryEncoding.Mode.MULTI_HOT).apply(Tensor.of(new float[] {4}, 1)));
        assertTrue(e.getMessage().contains("outside [0, 4)"), e.getMessage());
    }

    @Test
    void integerLookupAsKerasDocumentationShows() {
        // IntegerLookup(vocabulary=[12, 36, 1138, 42]) on [[12, 1138, 42], [42, 1000, 36]] gives
        // [[1, 3, 4], [4, 0, 2]].
        Tensor data = Tensor.of(new float[] {12, 1138, 42, 42, 1000, 36}, 2, 3);
        Tensor ids = new IntegerLookup(12, 36, 1138, 42).apply(data);
        assertArrayEquals(new int[] {1, 3, 4, 4, 0, 2}, ids.toIntArray());
        // With mask_token=0: the mask is 0, an unknown value 1, the vocabulary from 2.
        Tensor masked = new IntegerLookup(new long[] {12, 36, 1138, 42}, 0L)
                .apply(Tensor.of(new float[] {12, 0, 1000}, 3));
        assertArrayEquals(new int[] {2, 0, 1}, masked.toIntArray());
        // adapt on the same data: Keras' get_vocabulary() is [-1, 42, 1138, 1000, 36, 12] (the OOV token first).
        IntegerLookup adapted = IntegerLookup.adapt(List.of(data), 0);
        assertArrayEquals(new long[] {42, 1138, 1000, 36, 12}, adapted.vocabulary());
        assertEquals(6, adapted.size());
        assertArrayEquals(new long[] {42, 1138}, IntegerLookup.adapt(List.of(data), 3).vocabulary());
    }

    @Test
    void theyComposeAsPipelineMapFunctions() {
        // Years to bins to one-hot features, per sample, in a pipeline.
        Tensor years = Tensor.of(new float[] {1950, 1985, 2001, 2020}, 4, 1);
        Tensor labels = Tensor.of(new float[] {0, 1, 1, 0}, 4);
        Discretization decades = new Discretization(1980f, 2000f);
        CategoryEncoding oneHot = new CategoryEncoding(decades.bins(), CategoryEncoding.Mode.ONE_HOT);
        List<Sample> out = collect(Pipeline.fromArrays(years, labels).map(Sample.features(decades.andThen(oneHot))));
        assertEquals(4, out.size());
        assertArrayEquals(new float[] {0, 0, 1}, out.get(3).features().toArray());
        assertArrayEquals(new float[] {0, 1, 0}, out.get(1).features().toArray());
    }

    private static List<Sample> collect(Pipeline<Sample> p) {
        List<Sample> out = new java.util.ArrayList<>();
        p.forEach(out::add);
        return out;
    }
}

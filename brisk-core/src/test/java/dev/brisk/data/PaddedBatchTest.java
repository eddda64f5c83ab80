package dev.brisk.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.History;
import dev.brisk.data.preprocessing.Vocabulary;
import dev.brisk.losses.Losses;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Padded batches of sequences of different lengths: shapes, zeros, dtypes, errors, and a model trained on them. */
class PaddedBatchTest {

    private static Tensor ids(int... values) {
        return Tensor.ofInts(values, values.length);
    }

    @Test
    void sequencesArePaddedWithZerosToTheLongestInTheBatch() {
        List<Sample> samples = List.of(new Sample(ids(5, 6), Tensor.scalar(1)), new Sample(ids(7, 8, 9),
                Tensor.scalar(0)), new Sample(ids(4), Tensor.scalar(1)));
        List<Batch> batches = Pipeline.fromList(samples).paddedBatch(2).toList();
        assertEquals(2, batches.size());
        Batch first = batches.get(0);
        assertEquals(DType.INT32, first.features().dtype());
        assertEquals(Shape.of(2, 3), first.features().shape());
        assertArrayEquals(new int[] {5, 6, 0, 7, 8, 9}, first.features().toIntArray());
        assertEquals(Shape.of(2), first.labels().shape());
        assertEquals(1f, first.labels().get(0));
        Batch last = batches.get(1); // the smaller last batch, padded to its own longest
        assertEquals(Shape.of(1, 1), last.features().shape());
        assertEquals(1, Pipeline.fromList(samples).paddedBatch(2, true).toList().size());
    }

    @Test
    void aFixedLengthGivesEveryBatchOneShapeAndPadsSequenceLabelsToo() {
        List<Sample> samples = List.of(new Sample(ids(1, 2), Tensor.of(new float[] {3, 4}, 2)),
                new Sample(ids(3), Tensor.of(new float[] {5}, 1)));
        Batch b = Pipeline.fromList(samples).paddedBatch(2, 4, false).toList().get(0);
        assertArrayEquals(new int[] {1, 2, 0, 0, 3, 0, 0, 0}, b.features().toIntArray());
        assertEquals(Shape.of(2, 4), b.labels().shape());
        assertEquals(DType.FLOAT32, b.labels().dtype());
        float[] labels = new float[8];
        for (int i = 0; i < 8; i++) {
            labels[i] = b.labels().get(i);
        }
        assertArrayEquals(new float[] {3, 4, 0, 0, 5, 0, 0, 0}, labels);
        IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
                () -> Pipeline.fromList(samples).paddedBatch(2, 1, false).toList());
        assertTrue(tooLong.getMessage().contains("element 0 of batch 0 has features of shape (2,)")
                && tooLong.getMessage().contains("padded length 1"), tooLong.getMessage());
    }

    @Test
    void everyAxisOfAMatrixIsPadded() {
        Tensor a = Tensor.of(new float[] {1, 2, 3, 4}, 2, 2);
        Tensor b = Tensor.of(new float[] {5, 6, 7}, 1, 3);
        Batch batch = Pipeline.fromList(List.of(a, b)).paddedBatch(2).toList().get(0);
        assertEquals(Shape.of(2, 2, 3), batch.features().shape());
        float[] got = new float[12];
        for (int i = 0; i < 12; i++) {
            got[i] = batch.features().get(i);
        }
        assertArrayEquals(new float[] {1, 2, 0, 3, 4, 0, 5, 6, 7, 0, 0, 0}, got);
    }

    @Test
    void aReusedArrayIsPaddedAgain() {
        // Batch 0 fills a whole (2, 3) array; once given back, batch 1 reuses it with shorter sequences.
        List<Sample> samples = List.of(new Sample(ids(1, 2, 3)), new Sample(ids(4, 5, 6)), new Sample(ids(7)),
                new Sample(ids(8)));
        try (PipelineIterator<Batch> it = Pipeline.fromList(samples).paddedBatch(2, 3, false).iterator()) {
            Batch first = it.next();
            assertArrayEquals(new int[] {1, 2, 3, 4, 5, 6}, first.features().toIntArray());
            float[] storage = first.features().data();
            it.recycle(first);
            Batch second = it.next();
            assertTrue(second.features().data() == storage, "the array given back is reused");
            assertArrayEquals(new int[] {7, 0, 0, 8, 0, 0}, second.features().toIntArray());
        }
    }

    @Test
    void mixedRanksAndTypesAreRefusedByElement() {
        IllegalArgumentException rank = assertThrows(IllegalArgumentException.class,
                () -> Pipeline.fromList(List.of(ids(1, 2), Tensor.ofInts(new int[] {1}, 1, 1))).paddedBatch(2)
                        .toList());
        assertTrue(rank.getMessage().contains("element 1 of batch 0") && rank.getMessage().contains("ranks"),
                rank.getMessage());
        IllegalArgumentException type = assertThrows(IllegalArgumentException.class,
                () -> Pipeline.fromList(List.of(ids(1, 2), Tensor.of(new float[] {1}, 1))).paddedBatch(2).toList());
        assertTrue(type.getMessage().contains("of type FLOAT32 but the first element's is INT32"), type.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Pipeline.range(3).paddedBatch(0));
        assertThrows(IllegalArgumentException.class, () -> Pipeline.range(3).paddedBatch(2, 0, false));
    }

    /**
     * Sentences of 2 to 8 words, looked up in a word vocabulary on pipeline workers, padded and fed to an embedding
     * that masks the padding: the classifier learns which sentences mention "good".
     */
    @Test
    void paddedWordSequencesTrainAMaskedClassifier() {
        String[] words = {"the", "film", "was", "a", "plot", "and", "cast", "very", "quite"};
        SplittableRandom random = new SplittableRandom(3);
        List<String> texts = new ArrayList<>();
        List<Float> labels = new ArrayList<>();
        for (int i = 0; i < 256; i++) {
            int n = 2 + random.nextInt(7);
            boolean good = random.nextBoolean();
            StringBuilder sb = new StringBuilder();
            for (int w = 0; w < n; w++) {
                sb.append(w == n / 2 ? (good ? "Good" : "dull") : words[random.nextInt(words.length)]).append(' ');
            }
            texts.add(sb.toString());
            labels.add(good ? 1f : 0f);
        }
        Vocabulary vocabulary = Vocabulary.ofWords(String.join(" ", texts), 0);
        var lookup = vocabulary.wordLookup();
        Pipeline<Batch> train = Pipeline.range(texts.size())
                .map(i -> new Sample(lookup.apply(texts.get(i)), Tensor.scalar(labels.get(i))), 2)
                .shuffle(256, 7)
                .paddedBatch(32, 8, false)
                .prefetch(2);
        RandomSeed.set(11);
        Model model = Sequential.of(
                Layers.input(DType.INT32, 8),
                Layers.embedding(vocabulary.size(), 8, true),
                Layers.globalAveragePooling1d(),
                Layers.dense(2));
        model.compile(Optimizers.adam(2e-2f), Losses.sparseCategoricalCrossentropy(true));
        History h = model.fit(train, Fit.epochs(6).verbose(0));
        List<Double> loss = h.get("loss");
        assertTrue(loss.get(loss.size() - 1) < 0.5 * loss.get(0), "loss fell " + loss);
    }
}

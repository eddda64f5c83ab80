package dev.brisk.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.brisk.data.preprocessing.OneHot;
import dev.brisk.data.preprocessing.RandomCrop;
import dev.brisk.data.preprocessing.RandomFlip;
import dev.brisk.data.preprocessing.Rescaling;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The same seeds give the same batches whatever the number of threads, workers or the prefetch depth. */
class DeterminismTest {
    private static final int N = 300;
    private static final Tensor IMAGES;
    private static final Tensor LABELS;

    static {
        SplittableRandom r = new SplittableRandom(5);
        float[] x = new float[N * 8 * 8];
        float[] y = new float[N];
        for (int i = 0; i < x.length; i++) {
            x[i] = r.nextInt(256);
        }
        for (int i = 0; i < N; i++) {
            y[i] = i % 10;
        }
        IMAGES = Tensor.of(x, N, 8, 8, 1);
        LABELS = Tensor.of(y, N);
    }

    @AfterEach
    void resetBudget() {
        ThreadBudget.reset();
    }

    /** Shuffle, two augmentations, a filter and batching; {@code parallelism} 0 maps inline. */
    private static Pipeline<Batch> pipeline(int parallelism, int prefetch) {
        Pipeline<Sample> p = Pipeline.fromArrays(IMAGES, LABELS).shuffle(64, 11)
                .map(Sample.features(Rescaling.divideBy(255)), parallelism)
                .map(Sample.features(new RandomFlip(RandomFlip.Mode.HORIZONTAL_AND_VERTICAL, 12)), parallelism)
                .map(Sample.features(new RandomCrop(6, 6, 13)), parallelism)
                .filter(s -> s.label().get(0) != 3f)
                .map(Sample.labels(new OneHot(10)), parallelism);
        Pipeline<Batch> batches = p.batch(16);
        return prefetch == 0 ? batches : batches.prefetch(prefetch);
    }

    /** Two passes (epochs), every batch's values (also used by {@link BytePipelineTest}). */
    static List<float[]> twoEpochs(Pipeline<Batch> p) {
        List<float[]> out = new ArrayList<>();
        for (int epoch = 0; epoch < 2; epoch++) {
            for (Batch b : p) {
                out.add(b.features().toArray());
                out.add(b.labels().toArray());
            }
        }
        return out;
    }

    @Test
    void sameBatchesWithOneOrFourWorkers() {
        ThreadBudget.set(1);
        List<float[]> inline = twoEpochs(pipeline(0, 0));
        List<float[]> one = twoEpochs(pipeline(1, 2));
        ThreadBudget.set(4);
        List<float[]> four = twoEpochs(pipeline(4, 3));
        List<float[]> tuned = twoEpochs(pipeline(Pipeline.AUTOTUNE, Pipeline.AUTOTUNE));
        assertEquals(2 * 2 * 17, inline.size(), "270 samples kept in 17 batches, features and labels, 2 epochs");
        for (List<float[]> other : List.of(one, four, tuned)) {
            assertEquals(inline.size(), other.size());
            for (int i = 0; i < inline.size(); i++) {
                assertArrayEquals(inline.get(i), other.get(i), "array " + i);
            }
        }
        // Each epoch is shuffled and augmented anew.
        assertFalse(Arrays.equals(inline.get(0), inline.get(34)));
    }
}

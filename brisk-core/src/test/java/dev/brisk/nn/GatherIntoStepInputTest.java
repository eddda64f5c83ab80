package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.brisk.data.Batch;
import dev.brisk.data.FeatureDestination;
import dev.brisk.data.ForwardingDataset;
import dev.brisk.data.InMemoryDataset;
import dev.brisk.losses.Losses;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A compiled fit gathers each shuffled batch straight into its step's input buffer (no second copy), from the
 * second step of each batch size on, and trains to the same weights as the same fit on a dataset that ignores the
 * destination.
 */
class GatherIntoStepInputTest {
    /** The dataset, recording what the training loop offered as destinations (or ignoring them). */
    private static final class Recording extends ForwardingDataset {
        final boolean passOn;
        final List<Tensor> offered = new ArrayList<>();

        Recording(InMemoryDataset inner, boolean passOn) {
            super(inner);
            this.passOn = passOn;
        }

        @Override
        public Iterable<Batch> batches(int batchSize, boolean shuffle, long seed, FeatureDestination into) {
            if (!passOn) {
                return inner.batches(batchSize, shuffle, seed);
            }
            return inner.batches(batchSize, shuffle, seed, rows -> {
                Tensor t = into.featuresFor(rows);
                offered.add(t);
                return t;
            });
        }
    }

    private static Model train(Recording data) {
        RandomSeed.set(5);
        Model model = EagerVsCompiledTest.cnn();
        model.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true));
        // 90 samples in batches of 16: 5 full steps and a partial one of 10 per epoch, 3 epochs.
        model.fit(data, Fit.epochs(3).batchSize(16).seed(3).verbose(0));
        return model;
    }

    @Test
    void batchesAfterTheFirstOfTheirSizeAreGatheredIntoTheStepsInput() {
        Tensor[] xy = EagerVsCompiledTest.data(90, 8, 8, 1);
        InMemoryDataset ds = new InMemoryDataset(xy[0], xy[1]);
        Recording direct = new Recording(ds, true);
        Model model = train(direct);
        Recording copied = new Recording(ds, false);
        Model reference = train(copied);

        assertEquals(18, direct.offered.size(), "one offer per batch");
        assertNull(direct.offered.get(0), "no step is compiled before the first batch");
        assertNull(direct.offered.get(5), "nor before the first partial batch");
        for (int i = 1; i < 18; i++) {
            if (i != 5) {
                boolean partial = i % 6 == 5;
                Tensor t = direct.offered.get(i);
                assertSame(direct.offered.get(partial ? 11 : 1), t, "offer " + i);
                assertEquals(partial ? 10 : 16, t.shape().dim(0), "offer " + i);
            }
        }
        List<Tensor> a = model.getWeights();
        List<Tensor> b = reference.getWeights();
        for (int i = 0; i < a.size(); i++) {
            assertArrayEquals(b.get(i).toArray(), a.get(i).toArray(), "weight " + i);
        }
    }
}

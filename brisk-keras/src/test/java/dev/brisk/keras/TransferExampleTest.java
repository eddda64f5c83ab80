package dev.brisk.keras;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.data.InMemoryDataset;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Layer;
import dev.brisk.nn.Model;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fine-tuning example of docs/saving.md, line for line, on a small convolutional network. */
class TransferExampleTest {
    @Test
    void fineTunesALoadedBaseWithANewHead(@TempDir Path dir) throws Exception {
        Tensor[] xy = KerasRoundTripTest.images(64);
        Model trained = Sequential.of(Layers.input(8, 8, 1), Layers.conv2d(4, 3, Activation.RELU),
                Layers.maxPooling2d(2), Layers.flatten(), Layers.dense(8, Activation.RELU), Layers.dense(10));
        trained.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true));
        trained.fit(xy[0], xy[1], Fit.epochs(1).batchSize(16).verbose(0));
        KerasModels.save(trained, dir.resolve("w2.keras"));

        Model w2 = KerasModels.load(dir.resolve("w2.keras"));
        List<Layer> base = new ArrayList<>(w2.layers().subList(0, w2.layers().size() - 1));
        base.forEach(l -> l.setTrainable(false));
        Sequential tuned = Sequential.of(base.toArray(new Layer[0])).add(Layers.dense(3));
        tuned.compile(Optimizers.adam(1e-3f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());

        List<Tensor> baseBefore = new ArrayList<>();
        base.forEach(l -> l.weights().forEach(v -> baseBefore.add(v.value().copy())));
        Tensor headBefore = tuned.layers().get(tuned.layers().size() - 1).weights().get(0).value().copy();
        tuned.fit(new InMemoryDataset(xy[0], xy[1]), Fit.epochs(2).batchSize(16).verbose(0)); // labels 0-2 only
        int i = 0;
        for (Layer l : base) {
            for (var v : l.weights()) {
                assertArrayEquals(baseBefore.get(i++).toArray(), v.value().toArray(), v.name());
            }
        }
        assertTrue(i > 0);
        assertFalse(java.util.Arrays.equals(headBefore.toArray(),
                tuned.layers().get(tuned.layers().size() - 1).weights().get(0).value().toArray()));
    }
}

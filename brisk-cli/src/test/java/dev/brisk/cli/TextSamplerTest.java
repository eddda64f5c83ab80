package dev.brisk.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.brisk.data.preprocessing.Vocabulary;
import dev.brisk.nn.Model;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.tensor.DType;
import dev.brisk.tensor.Shape;
import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * W4's generated sample: a model of fixed length reads the context padded to its window, as it always has; one that
 * leaves its length open reads the context alone, growing, and since both look only backwards they draw the same
 * characters from the same weights and seed.
 */
class TextSamplerTest {
    private static final Vocabulary CHARS = Vocabulary.ofCharacters("the quick brown fox jumps over a lazy dog.");
    private static final int WINDOW = 12;
    private static final String SEED = "the ";

    /** Weights drawn from a seeded generator, so twins are the same whatever the global seed. */
    private static Model seeded(Model model) {
        SplittableRandom r = new SplittableRandom(5);
        List<Tensor> weights = new ArrayList<>();
        for (Tensor w : model.getWeights()) {
            float[] v = new float[w.size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = (float) (r.nextGaussian() * 0.5);
            }
            weights.add(Tensor.of(v, w.shape().dims()));
        }
        model.setWeights(weights);
        return model;
    }

    private static String sample(Model model) {
        return TextSampler.generate(model, CHARS, SEED, 30, WINDOW, new SplittableRandom(9));
    }

    @Test
    void aFixedLengthModelSamplesAsBefore() {
        // The samples these seeds gave before the sampler learned open lengths (the padded window, unchanged).
        assertEquals("the tgnp.p.gxgtthh.bbbstvthfhvltv.",
                sample(seeded(LanguageModels.gru(CHARS.size(), WINDOW))));
        assertEquals("the aiataaaiaitaiaiiaatitaaaatiaat",
                sample(seeded(LanguageModels.transformer(CHARS.size(), WINDOW))));
    }

    @Test
    void anOpenLengthModelSamplesAsItsFixedLengthTwin() {
        assertEquals(sample(seeded(LanguageModels.gru(CHARS.size(), WINDOW))),
                sample(seeded(LanguageModels.gru(CHARS.size(), WINDOW, true))));
        assertEquals(sample(seeded(LanguageModels.transformer(CHARS.size(), WINDOW))),
                sample(seeded(LanguageModels.transformer(CHARS.size(), WINDOW, true))));
    }

    @Test
    void anOpenLengthModelReadsTheContextWithoutPadding() {
        // A backward GRU reads the padding after the context first: padded, its sample differs from the unpadded one.
        Model fixed = seeded(Sequential.of(Layers.input(DType.INT32, WINDOW), Layers.embedding(CHARS.size(), 8),
                Layers.gru(8, true, true), Layers.dense(CHARS.size())));
        Model open = seeded(Sequential.of(Layers.input(DType.INT32, Shape.OPEN), Layers.embedding(CHARS.size(), 8),
                Layers.gru(8, true, true), Layers.dense(CHARS.size())));
        assertNotEquals(sample(fixed), sample(open));
    }
}

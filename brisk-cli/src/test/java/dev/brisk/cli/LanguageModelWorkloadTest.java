package dev.brisk.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brisk.cli.Workloads.Workload;
import dev.brisk.config.Settings;
import dev.brisk.data.Fortunes;
import dev.brisk.nn.RandomSeed;
import dev.brisk.tensor.Shape;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * W4 of docs/workloads.md: the language models have the sizes counted there, the fortunes text gives the reference
 * vocabulary, and {@code brisk train --workload w4|w4-gru} runs end to end on a small part of the text (one step).
 */
class LanguageModelWorkloadTest {
    @TempDir
    Path dir;

    @Test
    void theTransformerHasTheParametersAndMultiplyAddsCountedByHand() {
        RandomSeed.set(1);
        int v = Workloads.REFERENCE_VOCABULARY;
        // token 114 x 128, positions 128 x 128; a block: LN 256, MHA 4 x (128 x 128 + 128), LN 256,
        // Dense 128 x 512 + 512, Dense 512 x 128 + 128; last LN 256; Dense 128 x 114 + 114
        long block = 256 + 4 * (128 * 128 + 128) + 256 + (128 * 512 + 512) + (512 * 128 + 128);
        assertEquals(v * 128 + 128 * 128 + 2 * block + 256 + 128 * v + v, Workload.W4.model().parameterCount());
        assertEquals(442_482, Workload.W4.model().parameterCount());
        // per position: 2 blocks x (4 projections 128 x 128, 128 x 512 and 512 x 128, scores and values 2 x 128
        // x 128), output 128 x 114; 128 positions
        assertEquals(128L * (2 * (4 * 128 * 128 + 2 * 128 * 512 + 2 * 128 * 128) + 128 * 114),
                Workload.W4.forwardMacsPerSample());
        assertEquals(Shape.of(128), Workload.W4.model().inputs().get(0).shape());
    }

    @Test
    void theGruVariantHasTheParametersAndMultiplyAddsCountedByHand() {
        RandomSeed.set(1);
        // embedding 114 x 128; GRU kernel 128 x 768, recurrent 256 x 768, bias 2 x 768; Dense 256 x 114 + 114
        assertEquals(114 * 128 + 128 * 768 + 256 * 768 + 2 * 768 + 256 * 114 + 114,
                Workload.W4_GRU.model().parameterCount());
        assertEquals(128L * (3 * 256 * (128 + 256) + 256 * 114), Workload.W4_GRU.forwardMacsPerSample());
    }

    @Test
    void theTextWorkloadsAreNamedAndConfiguredAsDocumented() {
        assertEquals(Workload.W4_GRU, Workload.parse("w4-gru"));
        assertEquals("w4-gru", Workload.W4_GRU.id());
        assertEquals(64, Workload.W4.batchSize());
        assertEquals(128, Workload.W3.batchSize());
        assertEquals(TestMetric.LOSS, Workload.W4.testMetric());
        assertTrue(Workload.W4.text() && Workload.W4_GRU.text() && !Workload.W3.text());
        assertTrue(!Workload.W4.trainsThroughPipeline());
    }

    @Test
    void theFortunesTextGivesTheReferenceVocabulary() throws IOException {
        assumeFortunes();
        CharacterCorpus corpus = CharacterCorpus.load(Fortunes.DEFAULT_DIR);
        assertEquals(Workloads.REFERENCE_VOCABULARY, corpus.vocabulary().size());
        int total = corpus.train().length + corpus.heldOut().length;
        assertEquals((long) total * 9 / 10, corpus.train().length);
        assertTrue(total > 2_000_000, "characters " + total);
    }

    @Test
    void w4TrainsEndToEndOnAPartOfTheText() throws IOException {
        endToEnd("w4");
    }

    @Test
    void w4GruTrainsEndToEndOnAPartOfTheText() throws IOException {
        endToEnd("w4-gru");
    }

    /** One step on 64 windows of two small cookie files, then the held-out figure, a sample and the RESULT line. */
    private void endToEnd(String workload) throws IOException {
        assumeFortunes();
        for (String name : new String[] {"goedel", "pets"}) {
            Files.copy(Fortunes.DEFAULT_DIR.resolve(name), dir.resolve(name));
        }
        CliRun r = CliRun.run("train", "--workload", workload, "--text", dir.toString(), "--epochs", "1",
                "--limit", "64", "--seed", "3", "--threads", "2", "--verbose", "0");
        assertEquals(0, r.code(), r.err());
        String result = r.out().lines().filter(l -> l.startsWith("RESULT ")).findFirst().orElseThrow();
        assertTrue(result.matches(ResultLine.REGEX), result);
        assertTrue(result.contains("workload=" + workload + " ") && result.contains("epochs=1"), result);
        double loss = field(result, "test_loss");
        double bits = field(result, "bits_per_char");
        assertEquals(loss / Math.log(2), bits, 1e-3, result);
        // One step from the initial weights: about the log of the vocabulary's size, not a trained figure.
        assertTrue(bits > 2 && bits < 10, result);
        assertTrue(field(result, "tokens_per_s") >= field(result, "samples_per_s") * 100, result);
        assertTrue(r.out().contains("held-out: loss ") && r.out().contains(" bits per character"), r.out());
        assertTrue(r.out().contains(LanguageModelRun.SAMPLE_SEED), r.out());
        ResultLine parsed = ResultLine.parse(result);
        assertEquals(TestMetric.LOSS, parsed.testMetric());
    }

    private static double field(String line, String key) {
        Matcher m = Pattern.compile(" " + key + "=(\\S+)").matcher(line);
        assertTrue(m.find(), key + " in " + line);
        return Double.parseDouble(m.group(1));
    }

    /** Skipped where the fortunes package is not installed, failed where CI requires the data. */
    private static void assumeFortunes() {
        boolean present = Files.isDirectory(Fortunes.DEFAULT_DIR);
        if (!present && Settings.requireData()) {
            fail("BRISK_REQUIRE_DATA=1 but " + Fortunes.DEFAULT_DIR + " is missing: apt-get install fortunes");
        }
        assumeTrue(present, "fortunes not installed at " + Fortunes.DEFAULT_DIR);
    }
}

package dev.brisk.cli;

import static dev.brisk.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.callbacks.History;
import dev.brisk.cli.Workloads.Workload;
import dev.brisk.data.FashionMnist;
import dev.brisk.data.InMemoryDataset;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Model;
import dev.brisk.nn.RandomSeed;
import dev.brisk.parallel.ThreadBudget;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The model zoo (Z1-Z4 of docs/workloads.md): each model has the size counted by hand there, each trains a step, and
 * the autoencoder, which has no accuracy, reports its test loss. Small data from core's 1,000-image fixture; no
 * training to accuracy here.
 */
class ZooWorkloadsTest {
    private static final Path FIXTURE = Path.of("../brisk-core/src/test/resources/fashion-mnist-mini");
    private static InMemoryDataset few;

    @BeforeAll
    static void load() throws IOException {
        few = FashionMnist.load(FIXTURE).train().take(4);
    }

    @AfterEach
    void resetBudget() {
        ThreadBudget.reset();
    }

    /** Weights of a 3x3 convolution from {@code in} to {@code out} channels, with its bias. */
    private static long conv3x3(int in, int out) {
        return 9L * in * out + out;
    }

    /** Weights of a BatchNormalization of {@code c} channels: gamma, beta, moving mean, moving variance. */
    private static long bn(int c) {
        return 4L * c;
    }

    @Test
    void resNetHasTheParametersCountedByHand() {
        long stem = conv3x3(1, 16) + bn(16); // 160 + 64
        long stage1 = 2 * 2 * (conv3x3(16, 16) + bn(16)); // two blocks of two convs: 4 x (2,320 + 64) = 9,536
        long projection2 = (16 * 32 + 32) + bn(32); // 1x1 stride-2 shortcut: 544 + 128
        long stage2 = conv3x3(16, 32) + bn(32) + 3 * (conv3x3(32, 32) + bn(32)) + projection2; // 33,568
        long projection3 = (32 * 64 + 64) + bn(64); // 2,112 + 256
        long stage3 = conv3x3(32, 64) + bn(64) + 3 * (conv3x3(64, 64) + bn(64)) + projection3; // 132,672
        long head = 64 * 10 + 10; // Dense(10) after global average pooling
        long total = stem + stage1 + stage2 + stage3 + head;
        assertEquals(176_650, total);
        assertEquals(total, Workload.Z1.model().parameterCount());
    }

    @Test
    void vggHasTheParametersCountedByHand() {
        long convs = conv3x3(1, 32) + conv3x3(32, 32) + conv3x3(32, 64) + conv3x3(64, 64); // 320+9,248+18,496+36,928
        long norms = bn(32) + bn(32) + bn(64) + bn(64); // 768
        long dense = (7 * 7 * 64 * 256 + 256) + (256 * 10 + 10); // 803,072 + 2,570 after two 2x2 pools: 7x7x64
        assertEquals(871_402, convs + norms + dense);
        assertEquals(convs + norms + dense, Workload.Z2.model().parameterCount());
    }

    @Test
    void autoencoderHasTheParametersCountedByHand() {
        // 784*256+256 + 256*64+64 + 64*256+256 + 256*784+784 = 200,960 + 16,448 + 16,640 + 201,488
        assertEquals(435_536, Workload.Z3.model().parameterCount());
    }

    @Test
    void wideMlpHasTheParametersCountedByHand() {
        // 784*1024+1024 + 3 x (1024*1024+1024) + 4 x BN(1024) + 1024*10+10
        //   = 803,840 + 3,148,800 + 16,384 + 10,250
        assertEquals(3_979_274, Workload.Z4.model().parameterCount());
    }

    @Test
    void forwardMultiplyAddsAreTheOnesOfWorkloadsMd() {
        // Z1: stem 112,896; stage 1 4 x 1,806,336; stages 2 and 3 each 903,168 (stride-2 conv) + 100,352 (1x1
        // projection) + 3 x 1,806,336; head 640
        assertEquals(112_896 + 4 * 1_806_336 + 2 * (903_168 + 100_352 + 3 * 1_806_336) + 640,
                Workload.Z1.forwardMacsPerSample());
        assertEquals(20_183_936, Workload.Z1.forwardMacsPerSample());
        // Z2: 225,792 + 7,225,344 + 3,612,672 + 7,225,344 + 802,816 + 2,560
        assertEquals(19_094_528, Workload.Z2.forwardMacsPerSample());
        // Z3: 200,704 + 16,384 + 16,384 + 200,704
        assertEquals(434_176, Workload.Z3.forwardMacsPerSample());
        // Z4: 802,816 + 3 x 1,048,576 + 10,240
        assertEquals(3_958_784, Workload.Z4.forwardMacsPerSample());
    }

    @ParameterizedTest
    @EnumSource(value = Workload.class, names = {"Z1", "Z2", "Z3", "Z4", "W3"})
    void oneStepOnAFewSamplesGivesAFiniteLoss(Workload w) {
        ThreadBudget.set(1);
        RandomSeed.set(5);
        Model model = w.compiledModel();
        InMemoryDataset data = w.prepare(few);
        History history = model.fit(data, Fit.epochs(1).batchSize(data.size()).verbose(0));
        double loss = history.last("loss");
        assertTrue(Double.isFinite(loss) && loss > 0, w.id() + " loss " + loss);
        assertEquals(w.testMetric() == TestMetric.ACCURACY, history.asMap().containsKey("accuracy"),
                w.id() + " reports " + history.asMap().keySet());
    }

    @Test
    void theAutoencodersTargetsAreItsFlattenedInputs() {
        InMemoryDataset data = Workload.Z3.prepare(few);
        assertEquals(1, data.featureShape().rank());
        assertEquals(784, data.featureShape().dim(0));
        assertEquals(data.featureShape(), data.labelShape());
        float[] x = data.features().toArray();
        float[] y = data.labels().toArray();
        assertEquals(x.length, y.length);
        for (int i = 0; i < x.length; i++) {
            assertEquals(x[i], y[i], "value " + i);
            assertTrue(y[i] >= 0 && y[i] <= 1, "a pixel scaled to [0, 1]: " + y[i]);
        }
    }

    @Test
    void theAutoencodersResultLineCarriesItsTestLoss() {
        CliRun r = run("train", "--workload", "z3", "--epochs", "1", "--limit", "128", "--seed", "2", "--threads",
                "1", "--verbose", "0", "--data", FIXTURE.toString());
        assertEquals(0, r.code(), r.err());
        String result = r.out().lines().filter(l -> l.startsWith("RESULT")).findFirst().orElseThrow();
        assertTrue(result.matches(ResultLine.REGEX), result);
        assertTrue(result.startsWith("RESULT framework=brisk mode=compiled workload=z3 threads=1 "), result);
        assertFalse(result.contains("test_acc="), result);
        double loss = Double.parseDouble(result.replaceAll(".* test_loss=(\\S+) .*", "$1"));
        assertTrue(loss > 0 && loss < 1, "binary cross-entropy of [0, 1] pixels after a step: " + loss);
        assertTrue(r.out().lines().anyMatch(l -> l.matches("test: loss \\d\\.\\d{4} \\(\\d+ samples\\)")), r.out());
    }

    @Test
    void theAutoencoderCannotTrainThroughThePipeline() {
        CliRun r = run("train", "--workload", "z3", "--pipeline", "--data", FIXTURE.toString());
        assertEquals(2, r.code(), r.out());
        assertTrue(r.err().contains("--pipeline cannot feed workload z3"), r.err());
    }

    @Test
    void benchDefaultsToTheReferenceWorkloadsAndAcceptsTheZoo() {
        assertEquals(List.of(Workload.W1, Workload.W2), ((BenchCommand) BriskCommand.parse("bench")).workloads);
        BenchCommand zoo = (BenchCommand) BriskCommand.parse("bench", "--workloads", "z1,z2,z3,z4");
        assertEquals(List.of(Workload.Z1, Workload.Z2, Workload.Z3, Workload.Z4), zoo.workloads);
    }
}

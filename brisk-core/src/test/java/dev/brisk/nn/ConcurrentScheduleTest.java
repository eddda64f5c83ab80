package dev.brisk.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brisk.exec.Plan;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.layers.Layers;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.parallel.ThreadBudget;
import dev.brisk.profile.Profile;
import dev.brisk.profile.Span;
import dev.brisk.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Running independent instructions side by side ({@code brisk.concurrent}) changes no bit of training: every
 * kernel that joins a group gives the same floats inline on one thread as split over the pool.
 */
class ConcurrentScheduleTest {
    private static final String PROPERTY = "brisk.concurrent";

    @BeforeEach
    void twoThreads() {
        ThreadBudget.set(2);
    }

    @AfterEach
    void reset() {
        ThreadBudget.reset();
        System.clearProperty(PROPERTY);
    }

    /** An MLP whose backward gemms are big enough to be grouped. */
    private static Model mlp() {
        return Sequential.of(
                Layers.input(64),
                Layers.dense(128, Activation.RELU),
                Layers.dense(128, Activation.RELU),
                Layers.dense(10));
    }

    /** A CNN with batch norm (reductions with per-thread partial sums) and dropout, wide enough to be grouped. */
    private static Model cnn() {
        return Sequential.of(
                Layers.input(12, 12, 1),
                Layers.conv2d(16, 3, Activation.RELU),
                Layers.batchNormalization(),
                Layers.conv2d(32, 3, Activation.RELU),
                Layers.maxPooling2d(2),
                Layers.flatten(),
                Layers.dense(64, Activation.GELU),
                Layers.dropout(0.25f),
                Layers.dense(3));
    }

    private record Run(List<Tensor> weights, Plan plan) {
    }

    private static Run train(Supplier<Model> build, String mode, Tensor[] xy, int epochs) {
        System.setProperty(PROPERTY, mode);
        RandomSeed.set(17);
        Model model = build.get();
        model.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        model.fit(xy[0], xy[1], Fit.epochs(epochs).batchSize(64).seed(3).verbose(0));
        return new Run(model.getWeights(), model.trainPlan(64));
    }

    private static void assertBitIdentical(List<Tensor> expected, List<Tensor> actual) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i).toArray(), actual.get(i).toArray(), "weight " + i);
        }
    }

    @Test
    void mlpSideBySideGivesTheSameBits() {
        Tensor[] xy = EagerVsCompiledTest.data(256, 64);
        Run sequential = train(ConcurrentScheduleTest::mlp, "false", xy, 3);
        Run concurrent = train(ConcurrentScheduleTest::mlp, "always", xy, 3);
        assertEquals(0, sequential.plan().concurrentGroups());
        assertTrue(concurrent.plan().concurrentGroups() > 0, "the backward gemms were grouped");
        assertBitIdentical(sequential.weights(), concurrent.weights());
    }

    @Test
    void cnnWithBatchNormAndDropoutSideBySideGivesTheSameBits() {
        Tensor[] xy = EagerVsCompiledTest.data(192, 12, 12, 1);
        Run sequential = train(ConcurrentScheduleTest::cnn, "false", xy, 3);
        Run concurrent = train(ConcurrentScheduleTest::cnn, "always", xy, 3);
        assertTrue(concurrent.plan().concurrentGroups() > 0, "some instructions were grouped");
        assertBitIdentical(sequential.weights(), concurrent.weights());
    }

    @Test
    void theTrialThatPicksAWayPerGroupGivesTheSameBits() {
        // 40 steps per epoch: the trials (60 warm-up and 40 timed runs per group) end in the third epoch.
        Tensor[] xy = EagerVsCompiledTest.data(2560, 64);
        Run sequential = train(ConcurrentScheduleTest::mlp, "false", xy, 4);
        Run trial = train(ConcurrentScheduleTest::mlp, "true", xy, 4);
        assertBitIdentical(sequential.weights(), trial.weights());
    }

    @Test
    void aPlanCompiledForTwoThreadsRunsItsGroupsInTurnOnOne() {
        Tensor[] xy = EagerVsCompiledTest.data(256, 64);
        System.setProperty(PROPERTY, "always");
        RandomSeed.set(17);
        Model model = mlp();
        model.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true));
        model.fit(xy[0], xy[1], Fit.epochs(1).batchSize(64).verbose(0));
        ThreadBudget.set(1);
        model.fit(xy[0], xy[1], Fit.epochs(2).batchSize(64).verbose(0));
        List<Tensor> afterOneThread = model.getWeights();

        System.setProperty(PROPERTY, "false");
        ThreadBudget.set(2);
        RandomSeed.set(17);
        Model reference = mlp();
        reference.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true));
        reference.fit(xy[0], xy[1], Fit.epochs(1).batchSize(64).verbose(0));
        ThreadBudget.set(1);
        reference.fit(xy[0], xy[1], Fit.epochs(2).batchSize(64).verbose(0));
        assertBitIdentical(reference.getWeights(), afterOneThread);
    }

    @Test
    void profiledStepsShowGroupedKernelsOnTheirThreads(@TempDir Path tmp) throws IOException {
        System.setProperty(PROPERTY, "always");
        Tensor[] xy = EagerVsCompiledTest.data(640, 64);
        RandomSeed.set(17);
        Model model = mlp();
        model.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true));
        Path trace = tmp.resolve("t.json");
        model.fit(xy[0], xy[1], Fit.epochs(1).batchSize(64).verbose(0).profile(trace, 3, 8));
        Plan plan = model.trainPlan(64);
        assertTrue(plan.concurrentGroups() > 0);
        Profile profile = model.lastProfile();
        JsonNode root = new ObjectMapper().readTree(trace.toFile());
        long kernels = 0;
        Set<Long> named = new HashSet<>();
        Set<Long> used = new HashSet<>();
        for (JsonNode e : root.get("traceEvents")) {
            if (e.get("ph").asText().equals("M") && e.get("name").asText().equals("thread_name")) {
                named.add(e.get("tid").asLong());
            } else if (e.get("ph").asText().equals("X") && e.get("cat").asText().equals("kernel")) {
                kernels++;
                used.add(e.get("tid").asLong());
            }
        }
        assertEquals(6L * plan.instructionCount(), kernels, "one event per instruction and profiled step");
        assertTrue(named.containsAll(used), "every thread with kernel events is named");
        // Kernels that ran side by side count once in the step's breakdown.
        assertTrue(profile.kernelWallNanos() <= profile.total(Span.Category.COMPUTE));
    }
}

package dev.brisk.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brisk.exec.Plan;
import dev.brisk.losses.Losses;
import dev.brisk.metrics.Metrics;
import dev.brisk.nn.Activation;
import dev.brisk.nn.Fit;
import dev.brisk.nn.Model;
import dev.brisk.nn.ModelInternals;
import dev.brisk.nn.RandomSeed;
import dev.brisk.nn.Sequential;
import dev.brisk.nn.layers.Layers;
import dev.brisk.ops.FusedAttrs;
import dev.brisk.ops.Node;
import dev.brisk.ops.OpType;
import dev.brisk.optimizers.Optimizers;
import dev.brisk.tensor.Tensor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A profiled fit writes a Chrome trace with every kernel call of every profiled step, and a summary. */
class ProfiledFitTest {
    static final int SAMPLES = 40;
    static final int BATCH = 8;
    static final int FEATURES = 6;
    static final int HIDDEN = 8;

    @TempDir
    Path tmp;

    static Model mlp() {
        RandomSeed.set(5);
        Model m = Sequential.of(Layers.input(FEATURES), Layers.dense(HIDDEN, Activation.RELU), Layers.dense(3));
        m.compile(Optimizers.adam(1e-2f), Losses.sparseCategoricalCrossentropy(true), Metrics.accuracy());
        return m;
    }

    static Tensor[] data() {
        SplittableRandom r = new SplittableRandom(3);
        float[] x = new float[SAMPLES * FEATURES];
        float[] y = new float[SAMPLES];
        for (int i = 0; i < SAMPLES; i++) {
            y[i] = r.nextInt(3);
            for (int j = 0; j < FEATURES; j++) {
                x[i * FEATURES + j] = (float) r.nextGaussian();
            }
        }
        return new Tensor[] {Tensor.of(x, SAMPLES, FEATURES), Tensor.of(y, SAMPLES)};
    }

    /** Trains {@link #mlp()} on {@link #data()} in batches of {@link #BATCH}, profiling steps first-last. */
    static Model profiledFit(boolean eager, int epochs, Path trace, int first, int last) {
        Model m = mlp();
        m.runEagerly(eager);
        Tensor[] xy = data();
        m.fit(xy[0], xy[1], Fit.epochs(epochs).batchSize(BATCH).verbose(0).profile(trace, first, last));
        return m;
    }

    /** The X events of a trace file, which must parse as JSON. */
    static List<JsonNode> events(Path trace) throws IOException {
        JsonNode root = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .readTree(trace.toFile());
        assertEquals("ms", root.get("displayTimeUnit").asText());
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode e : root.get("traceEvents")) {
            assertTrue(e.get("pid").isIntegralNumber() && e.get("tid").isIntegralNumber(), e.toString());
            if (e.get("ph").asText().equals("X")) {
                out.add(e);
            }
        }
        return out;
    }

    static List<JsonNode> inCategory(List<JsonNode> events, String cat, int step) {
        return events.stream().filter(e -> e.get("cat").asText().equals(cat)
                && e.get("args").get("step").asInt() == step).toList();
    }

    static BigDecimal start(JsonNode e) {
        return e.get("ts").decimalValue();
    }

    static BigDecimal end(JsonNode e) {
        return start(e).add(e.get("dur").decimalValue());
    }

    static void assertInside(JsonNode child, JsonNode parent) {
        assertTrue(child.get("dur").decimalValue().signum() >= 0, child.toString());
        assertTrue(start(child).compareTo(start(parent)) >= 0 && end(child).compareTo(end(parent)) <= 0,
                child + " lies outside " + parent);
    }

    /** Checks every profiled step of a trace: its phases and kernels nest inside it; returns kernels per step. */
    static Map<Integer, List<JsonNode>> kernelsByStep(List<JsonNode> events, List<Integer> steps) {
        Map<Integer, List<JsonNode>> out = new LinkedHashMap<>();
        for (int step : steps) {
            List<JsonNode> stepSpans = inCategory(events, "step", step);
            assertEquals(1, stepSpans.size(), "one span for step " + step);
            JsonNode s = stepSpans.get(0);
            List<JsonNode> compute = inCategory(events, "compute", step);
            assertEquals(1, compute.size(), "one train-step span in step " + step);
            assertInside(compute.get(0), s);
            assertEquals(1, inCategory(events, "input", step).size());
            assertInside(inCategory(events, "input", step).get(0), s);
            for (JsonNode h : inCategory(events, "host", step)) {
                assertInside(h, s);
            }
            List<JsonNode> kernels = inCategory(events, "kernel", step);
            for (JsonNode k : kernels) {
                assertInside(k, compute.get(0));
            }
            out.put(step, kernels);
        }
        return out;
    }

    @Test
    void compiledTraceHasEveryInstructionOfEveryProfiledStep() throws IOException {
        Path trace = tmp.resolve("trace.json");
        Model m = profiledFit(false, 3, trace, 2, 4);
        Profile profile = m.lastProfile();
        assertEquals(List.of(2, 3, 4), profile.steps());
        List<JsonNode> events = events(trace);
        Plan plan = ModelInternals.trainPlan(m, BATCH);
        assertNotNull(plan);
        List<Node> nodes = plan.instructionNodes();
        Map<Integer, List<JsonNode>> kernels = kernelsByStep(events, profile.steps());
        for (List<JsonNode> stepKernels : kernels.values()) {
            assertEquals(plan.instructionCount(), stepKernels.size(), "one event per instruction");
            for (int i = 0; i < nodes.size(); i++) {
                assertEquals(nodes.get(i).id(), stepKernels.get(i).get("args").get("node").asInt(),
                        "kernels in plan order");
            }
        }
        assertEquals(3L * plan.instructionCount(), events.stream()
                .filter(e -> e.get("cat").asText().equals("kernel")).count(), "no kernel events outside the steps");
    }

    @Test
    void matmulFlopsAreTwoMNK() throws IOException {
        Path trace = tmp.resolve("trace.json");
        Model m = profiledFit(false, 1, trace, 1, 1);
        Map<Integer, Node> byId = new LinkedHashMap<>();
        ModelInternals.trainPlan(m, BATCH).instructionNodes().forEach(n -> byId.put(n.id(), n));
        int matmuls = 0;
        boolean sawFirstDense = false;
        for (JsonNode e : events(trace)) {
            // A forward product runs fused with its bias add (and activation), named MATMUL+BINARY(ADD)+...
            if (!e.get("name").asText().startsWith("MATMUL")) {
                continue;
            }
            matmuls++;
            Node n = byId.get(e.get("args").get("node").asInt());
            assertEquals(OpType.MATMUL, n.op());
            Node product = n.attrs() instanceof FusedAttrs f ? f.anchor() : n;
            long rows = product.shape().dim(0);
            long cols = product.shape().dim(1);
            long inner = product.input(0).shape().size() / rows; // whichever way A is transposed
            long elementwise = n.attrs() instanceof FusedAttrs f ? (f.nodes().size() - 1) * rows * cols : 0;
            assertEquals(2 * rows * cols * inner + elementwise, e.get("args").get("flops").asLong(), e.toString());
            if (e.get("args").get("shapes").asText().startsWith("(8, 6), (6, 8)")) {
                sawFirstDense = true;
                assertEquals("MATMUL+BINARY(ADD)+UNARY(RELU)", e.get("name").asText(), "fused with bias and relu");
                assertEquals("(8, 6), (6, 8), (8,) -> (8, 8)", e.get("args").get("shapes").asText());
                assertEquals(2L * BATCH * HIDDEN * FEATURES + 2L * BATCH * HIDDEN,
                        e.get("args").get("flops").asLong(), "the product's FLOPs plus one per element per fused op");
                assertTrue(e.get("args").get("layer").asText().startsWith("dense"), e.toString());
            }
        }
        assertTrue(sawFirstDense, "the first dense layer's forward product is in the trace");
        assertEquals(5, matmuls, "two forward products, both weight gradients, and the second layer's input gradient");
    }

    @Test
    void summaryListsTheOpsAndTheUtilisationFigures() throws IOException {
        Path trace = tmp.resolve("trace.json");
        Model m = profiledFit(false, 3, trace, 2, 4);
        String summary = m.lastProfile().summary();
        for (String expected : List.of("Profile of 3 compiled training steps (steps 2-4)", "CPU utilisation",
                "input wait", "GFLOP/s", "Top ops by total time", "By op type:")) {
            assertTrue(summary.contains(expected), expected + " in\n" + summary);
        }
        for (JsonNode e : events(trace)) {
            if (e.get("cat").asText().equals("kernel")) {
                assertTrue(summary.contains(e.get("name").asText()), e.get("name") + " in\n" + summary);
            }
        }
        assertTrue(summary.contains("UPDATE(ADAM)") && summary.contains("UNARY(RELU)"), summary);
        Profile p = m.lastProfile();
        assertTrue(p.cpuUtilisation() > 0 && p.cpuNanos() > 0, "the steps used CPU: " + p.cpuNanos());
        assertTrue(p.total(Span.Category.KERNEL) <= p.total(Span.Category.COMPUTE));
        assertTrue(p.flops() > 0);
    }

    @Test
    void eagerProfileTimesEveryKernelOp() throws IOException {
        Path trace = tmp.resolve("eager.json");
        Model m = profiledFit(true, 1, trace, 3, 4);
        Map<Integer, List<JsonNode>> kernels = kernelsByStep(events(trace), List.of(3, 4));
        List<String> ops3 = kernels.get(3).stream().map(e -> e.get("name").asText()).toList();
        List<String> ops4 = kernels.get(4).stream().map(e -> e.get("name").asText()).toList();
        assertEquals(ops3, ops4, "every eager step runs the same ops");
        assertTrue(ops3.contains("MATMUL") && ops3.contains("UPDATE(ADAM)"), ops3.toString());
        assertFalse(ops3.contains("INPUT") || ops3.contains("VARIABLE") || ops3.contains("RESHAPE"), ops3.toString());
        assertTrue(m.lastProfile().summary().contains("eager"), m.lastProfile().summary());
    }

    @Test
    void defaultWindowFollowsTheWarmUpAcrossEpochs() {
        Model m = mlp();
        Tensor[] xy = data();
        // 12 epochs of 5 steps: the default steps 51-55 are the 11th epoch
        m.fit(xy[0], xy[1], Fit.epochs(12).batchSize(BATCH).verbose(0).profile(tmp.resolve("t.json")));
        assertEquals(List.of(51, 52, 53, 54, 55), m.lastProfile().steps());
        Model short1 = mlp();
        short1.fit(xy[0], xy[1], Fit.epochs(1).batchSize(16).verbose(0).profile(tmp.resolve("s.json")));
        assertEquals(List.of(1, 2, 3), short1.lastProfile().steps(), "a short fit profiles all it has");
    }

    @Test
    void windowPastTheEndIsRefusedBeforeTraining() {
        Model m = mlp();
        Tensor[] xy = data();
        Path trace = tmp.resolve("never.json");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> m.fit(xy[0], xy[1], Fit.epochs(3).batchSize(BATCH).verbose(0).profile(trace, 20, 25)));
        assertTrue(e.getMessage().contains("20-25") && e.getMessage().contains("15 steps"), e.getMessage());
        assertFalse(Files.exists(trace));
        assertThrows(IllegalArgumentException.class, () -> Fit.epochs(1).profile(trace, 3, 2));
        assertThrows(IllegalArgumentException.class, () -> Fit.epochs(1).profile(trace, 0, 2));
    }

    @Test
    void verboseFitPrintsTheSummaryAndWhereTheTraceIs() {
        Model m = mlp();
        Tensor[] xy = data();
        Path trace = tmp.resolve("v.json");
        PrintStream saved = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
            m.fit(xy[0], xy[1], Fit.epochs(1).batchSize(BATCH).verbose(2).profile(trace, 2, 3));
        } finally {
            System.setOut(saved);
        }
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains(trace.toString()) && out.contains("Top ops by total time"), out);
        assertTrue(Files.exists(trace));
    }

    @Test
    void profileStepsWithoutATraceKeepsTheProfile() {
        Model m = mlp();
        Tensor[] xy = data();
        m.fit(xy[0], xy[1], Fit.epochs(1).batchSize(BATCH).verbose(0).profileSteps(2, 3));
        Profile p = m.lastProfile();
        assertNotNull(p, "kept without a trace file");
        assertEquals(List.of(2, 3), p.steps());
        assertTrue(p.spans().stream().anyMatch(s -> s.category() == Span.Category.KERNEL), "kernel calls timed");
    }
}

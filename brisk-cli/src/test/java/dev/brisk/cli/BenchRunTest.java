package dev.brisk.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.cli.Workloads.Workload;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchRunTest {
    private static List<String> command(boolean eager) {
        return new BenchRun(Workload.Z1, eager, 2).command(1, 7, Path.of("data"), 6400, false);
    }

    @Test
    void eagerChildGetsTheYoungGenerationBoundBeforeTheClassPath() {
        List<String> eager = command(true);
        int flag = eager.indexOf(BenchRun.EAGER_YOUNG_GENERATION);
        assertTrue(flag > 0, "eager child command lacks " + BenchRun.EAGER_YOUNG_GENERATION + ": " + eager);
        assertTrue(flag < eager.indexOf("-cp"), "the bound must be a JVM flag, before -cp: " + eager);
        assertTrue(eager.contains("--eager"), eager.toString());
    }

    @Test
    void compiledChildKeepsAdaptiveYoungGeneration() {
        List<String> compiled = command(false);
        assertFalse(compiled.contains(BenchRun.EAGER_YOUNG_GENERATION), compiled.toString());
        assertFalse(compiled.contains("--eager"), compiled.toString());
        assertEquals(List.of("--limit", "6400"), compiled.subList(compiled.size() - 2, compiled.size()));
    }

    @Test
    void launcherAddsTheSameBoundForEager() throws Exception {
        // The launcher and brisk bench must agree, or bench's eager figures would not be what ./brisk --eager gets.
        Path launcher = Path.of(System.getProperty("user.dir")).getParent().resolve("brisk");
        String script = java.nio.file.Files.readString(launcher);
        assertTrue(script.contains("EAGER_FLAGS=(" + BenchRun.EAGER_YOUNG_GENERATION + ")"),
                "brisk launcher does not add " + BenchRun.EAGER_YOUNG_GENERATION + " for --eager");
    }
}

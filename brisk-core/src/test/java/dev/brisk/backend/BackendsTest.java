package dev.brisk.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Backend selection, including a JVM started without the Vector API module. */
class BackendsTest {
    @Test
    void defaultIsTheVectorBackendWhenTheModuleIsPresent() {
        // Surefire starts the test JVM with --add-modules jdk.incubator.vector.
        assertTrue(ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent());
        assertEquals("jvm-vector", Backends.get().name());
        assertSame(Backends.get(), Backends.get());
        assertEquals("jvm-scalar", Backends.scalar().name());
    }

    @Test
    void withoutTheModuleItFallsBackToScalarWithOneLineNamingTheFlag() throws Exception {
        Result r = probe(false);
        assertEquals(0, r.exit, r.err);
        assertEquals("jvm-scalar", r.out.strip());
        assertEquals(Backends.FALLBACK_MESSAGE, r.err.strip());
    }

    @Test
    void thePropertyForcesAChoice() throws Exception {
        Result scalar = probe(true, "-D" + Backends.PROPERTY + "=scalar");
        assertEquals("jvm-scalar", scalar.out.strip());
        assertEquals("", scalar.err.strip());

        Result vector = probe(true, "-D" + Backends.PROPERTY + "=vector");
        assertEquals("jvm-vector", vector.out.strip());

        Result impossible = probe(false, "-D" + Backends.PROPERTY + "=vector");
        assertNotEquals(0, impossible.exit);
        assertTrue(impossible.err.contains("--add-modules jdk.incubator.vector"), impossible.err);
    }

    private record Result(int exit, String out, String err) {
    }

    @TempDir
    static Path probeClasses;

    /**
     * Runs {@link BackendsProbe} in a fresh JVM, with or without the Vector API module. The probe's class file is
     * copied out of target/test-classes first, so a concurrent rebuild of that folder cannot hide it.
     */
    private static Result probe(boolean withModule, String... properties)
            throws IOException, InterruptedException, URISyntaxException {
        Path probeFile = probeClasses.resolve("dev/brisk/backend/BackendsProbe.class");
        if (!Files.exists(probeFile)) {
            Files.createDirectories(probeFile.getParent());
            try (InputStream in = BackendsProbe.class.getResourceAsStream("BackendsProbe.class")) {
                Files.copy(in, probeFile);
            }
        }
        String classpath = location(Backends.class) + File.pathSeparator + probeClasses;
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        if (withModule) {
            command.add("--add-modules=jdk.incubator.vector");
        }
        command.addAll(List.of(properties));
        command.addAll(List.of("-cp", classpath, BackendsProbe.class.getName()));
        Process p = new ProcessBuilder(command).start();
        p.getOutputStream().close();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("probe JVM did not finish: " + command);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)
                .lines().filter(l -> !l.startsWith("WARNING: Using incubator modules"))
                .reduce("", (a, b) -> a.isEmpty() ? b : a + "\n" + b);
        return new Result(p.exitValue(), out, err);
    }

    private static String location(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}

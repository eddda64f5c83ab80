package dev.brisk.arch;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Enforces docs/architecture.md: a package may import only packages below it in this order. */
class LayeringTest {
    /**
     * The layers, bottom first: a package may import its own layer and those before it, never one after it. Each
     * entry is one layer (a package with its sub-packages, except {@code nn.layers}, which sits above {@code nn}).
     */
    private static final List<String> ORDER = List.of(
            "config",      // settings read from system properties and the environment
            "tensor",      // shapes and float storage
            "parallel",    // the thread budget and the shared pool
            "distribute",  // the ring all-reduce and its transports (JDK only)
            "ops",         // the IR: nodes, op types, attributes, elementwise functions, geometry
            "backend",     // the kernel SPI and the JVM kernels
            "exec",        // compiled plans: fusion, planning passes, binding, scheduling
            "eager",       // op-by-op execution
            "graph",       // the op builder and autodiff
            "io", "profile", "data",
            "losses", "metrics", "optimizers", "callbacks",
            "nn", "nn.layers");

    private static final Pattern QUALIFIED = Pattern.compile("dev\\.brisk\\.([a-z.]+)\\.[A-Z]");

    @Test
    void noPackageUsesAHigherOne() throws IOException {
        Path root = Path.of("src/main/java/dev/brisk");
        List<String> violations = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String pkg = layerOf(root.relativize(f.getParent()).toString().replace('/', '.'));
                String src = Files.readString(f);
                Matcher m = QUALIFIED.matcher(src);
                while (m.find()) {
                    String used = layerOf(m.group(1));
                    if (rank(used) > rank(pkg)) {
                        violations.add(f + " (" + pkg + ") uses " + m.group(1));
                    }
                }
            }
        }
        assertTrue(violations.isEmpty(), String.join("\n", violations));
    }

    /** Sub-packages belong to their parent's layer (backend.jvm is backend), except nn.layers. */
    private static String layerOf(String pkg) {
        if (pkg.startsWith("nn.layers")) {
            return "nn.layers";
        }
        int dot = pkg.indexOf('.');
        return dot < 0 ? pkg : pkg.substring(0, dot);
    }

    private static int rank(String layer) {
        int r = ORDER.indexOf(layer);
        if (r < 0) {
            throw new AssertionError("package '" + layer + "' is not in the layer order of LayeringTest "
                    + "(add it there and to docs/architecture.md)");
        }
        return r;
    }
}

package dev.brisk.backend.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.management.ObjectName;
import jdk.incubator.vector.Vector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorShuffle;
import org.junit.jupiter.api.Test;

/**
 * {@link JitInlining}'s list names every method of the package that takes or returns a vector, and loading the
 * vector kernels adds its directive to this JVM's C2 directives.
 */
class JitInliningTest {
    @Test
    void everyVectorValuedMethodIsForcedInline() throws Exception {
        List<String> missing = new ArrayList<>();
        int checked = 0;
        for (Class<?> c : packageClasses()) {
            for (Method m : c.getDeclaredMethods()) {
                if (m.isSynthetic() || !vectorValued(m)) {
                    continue;
                }
                checked++;
                String name = c.getSimpleName();
                if (!JitInlining.METHODS.contains(name + ".*") && !JitInlining.METHODS.contains(name + "." + m.getName())) {
                    missing.add(name + "." + m.getName());
                }
            }
        }
        assertTrue(checked >= 10, "found only " + checked + " vector-valued methods: is the class scan broken?");
        assertEquals(List.of(), missing, "vector-valued methods missing from JitInlining.METHODS");
    }

    @Test
    void theVectorKernelsAddTheDirective() throws Exception {
        assertEquals("jvm-vector", new VectorKernels().name());
        Object printed = ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "compilerDirectivesPrint",
                new Object[] {new String[0]}, new String[] {String[].class.getName()});
        String text = String.valueOf(printed);
        assertTrue(text.contains("dev/brisk/backend/jvm/VectorMath.*"), text);
    }

    private static boolean vectorValued(Method m) {
        if (isVectorType(m.getReturnType())) {
            return true;
        }
        for (Class<?> p : m.getParameterTypes()) {
            if (isVectorType(p)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isVectorType(Class<?> t) {
        return Vector.class.isAssignableFrom(t) || VectorMask.class.isAssignableFrom(t)
                || VectorShuffle.class.isAssignableFrom(t);
    }

    /** The package's top-level and nested classes, from the directory or jar its classes were loaded from. */
    private static List<Class<?>> packageClasses() throws URISyntaxException, java.io.IOException,
            ClassNotFoundException {
        Path root = Path.of(JitInlining.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path dir = root.resolve("dev/brisk/backend/jvm");
        List<Class<?>> classes = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).sorted().toList()) {
                String simple = f.getFileName().toString().replace(".class", "");
                if (simple.equals("package-info") || simple.equals("module-info")) {
                    continue;
                }
                classes.add(Class.forName("dev.brisk.backend.jvm." + simple, false,
                        JitInlining.class.getClassLoader()));
            }
        }
        return classes;
    }
}

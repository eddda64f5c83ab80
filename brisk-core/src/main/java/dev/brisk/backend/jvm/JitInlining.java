package dev.brisk.backend.jvm;

import dev.brisk.config.Settings;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import javax.management.ObjectName;

/**
 * Asks HotSpot's C2 compiler, once per process, to always inline the small methods of this package that take or
 * return vectors ({@link #METHODS}) into the kernels that call them.
 *
 * <p>Why: a vector passed to or returned from a method that C2 did not inline is boxed, an object and its array per
 * call (96 bytes where vectors are 512 bits). C2 declines to inline a method longer than 35 bytecodes at a call site
 * its profile calls cold, and any method already compiled on its own into more than {@code InlineSmallCode} bytes;
 * both depend on the order in which methods happened to warm up, so in some JVMs a kernel boxed its vectors on every
 * call for the rest of the run (the allocation tests caught a recurrent gate pass allocating two boxes per vector
 * of gates in about one JVM of twenty). A compiler directive that matches Brisk's methods and names these as forced
 * inlines takes the choice away from the warm-up order.
 *
 * <p>The directive is added through the platform's DiagnosticCommand MBean (what {@code jcmd PID
 * Compiler.directives_add FILE} does), from a temporary file deleted right after. It sits on top of any directives
 * the JVM was started with, for {@code dev.brisk} methods only. Where it cannot be added (a JVM other than HotSpot,
 * no writable temporary directory) nothing changes but the chance of boxing; {@code -Dbrisk.jitInline=false} leaves
 * C2 to its own rules.
 */
final class JitInlining {
    /**
     * The methods forced inline, as {@code Class.method} in this package ({@code *} for every method of a class):
     * every method of the package with a vector, mask or shuffle among its parameters or as its result
     * ({@code JitInliningTest} checks that the list covers them).
     */
    static final List<String> METHODS = List.of("VectorMath.*", "VectorBinaryLoops.load", "VectorBatchNormRows.gated",
            "VectorOptimizers.flush", "VectorPool.addWhere", "VectorDropout.mix", "TransposeSelectors.of",
            "VectorWinogradFilterGradient.store");

    private static final String PACKAGE = "dev/brisk/backend/jvm/";
    private static volatile boolean added;

    private JitInlining() {
    }

    /** Adds the directive once per process unless turned off; never throws. */
    static synchronized void install() {
        if (added || !Settings.jitInline()) {
            return;
        }
        added = true;
        try {
            Path file = Files.createTempFile("brisk-jit-inline", ".json");
            try {
                Files.writeString(file, directive());
                ManagementFactory.getPlatformMBeanServer().invoke(
                        new ObjectName("com.sun.management:type=DiagnosticCommand"), "compilerDirectivesAdd",
                        new Object[] {new String[] {file.toString()}}, new String[] {String[].class.getName()});
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (Exception | LinkageError e) {
            // Not HotSpot, or no temporary directory: C2 keeps its own inlining rules (correct, maybe boxing).
        }
    }

    /** The directive's JSON: C2 only (C1 boxes vectors whether or not it inlines). */
    static String directive() {
        String inline = METHODS.stream().map(m -> "\"+" + PACKAGE + m + "\"").collect(Collectors.joining(", "));
        return "[{ match: \"dev/brisk/*.*\", c2: { inline: [" + inline + "] } }]";
    }
}

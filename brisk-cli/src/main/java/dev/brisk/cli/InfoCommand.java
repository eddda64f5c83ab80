package dev.brisk.cli;

import dev.brisk.backend.Backends;
import dev.brisk.config.Setting;
import dev.brisk.config.Settings;
import dev.brisk.data.FashionMnist;
import dev.brisk.data.UnpackedCache;
import dev.brisk.parallel.ThreadBudget;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.commons.cli.Options;

/**
 * {@code brisk info}: what this JVM and machine give Brisk (Java, Vector API, threads, kernels, data), and every
 * setting with its effective value and where it came from.
 */
public final class InfoCommand extends Subcommand {
    static final String VECTOR_MODULE = "jdk.incubator.vector";
    private static final List<String> DESCRIPTION = List.of("Prints the Java version, Vector API availability,"
            + " thread budget, kernel backend, whether Fashion-MNIST is installed, and every setting (system"
            + " property or environment variable) with its effective value and where it came from.");
    private static final Options OPTIONS = CliOptions.of(CliOptions.valued("data", "DIR",
            "Fashion-MNIST directory to check (default: " + FashionMnist.DEFAULT_DIR + ")."));

    Path data = FashionMnist.DEFAULT_DIR;

    InfoCommand() {
        super("info", DESCRIPTION, OPTIONS);
    }

    @Override
    void read(OptionValues v) {
        data = v.path("data", data);
    }

    @Override
    int call() {
        PrintStream out = System.out;
        out.println("brisk          " + BriskCommand.Version.version());
        out.println("java           " + Runtime.version() + " (" + System.getProperty("java.vendor") + ", "
                + System.getProperty("java.home") + ")");
        out.println("vector API     " + vectorApi());
        ThreadBudget.Resolved budget = ThreadBudget.resolve();
        out.println("thread budget  " + budget + "; " + Runtime.getRuntime().availableProcessors()
                + " available processors; override with --threads N, -D" + ThreadBudget.PROPERTY + "=N or "
                + ThreadBudget.ENV + "=N");
        out.println("kernels        " + backend());
        out.println("max heap       " + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MB");
        out.println("fashion-mnist  " + fashionMnist(data));
        out.println("data cache     " + dataCache(UnpackedCache.fromEnvironment()));
        out.println("settings       (effective value and where it came from; see docs/configuration.md)");
        for (String line : settings()) {
            out.println("  " + line);
        }
        out.flush();
        return 0;
    }

    /**
     * One line per {@link Setting}: its property and variable, its effective value and where that came from; the
     * thread budget as {@link ThreadBudget} resolved it, so that a budget set through the API shows as such.
     */
    static List<String> settings() {
        List<String> lines = new ArrayList<>();
        for (Settings.Effective e : Settings.effective()) {
            String value = e.value();
            String source = e.origin();
            if (e.setting() == Setting.THREADS) {
                try {
                    ThreadBudget.Resolved budget = ThreadBudget.resolve();
                    value = String.valueOf(budget.threads());
                    source = budget.source();
                } catch (IllegalArgumentException ex) {
                    source = "invalid: " + ex.getMessage();
                }
            }
            lines.add(String.format(Locale.ROOT, "%-32s %s (%s)", names(e.setting()), value, source));
        }
        return lines;
    }

    /** The property and the variable that set {@code s}, whichever it has. */
    private static String names(Setting s) {
        if (s.property() == null) {
            return s.env();
        }
        return s.env() == null ? s.property() : s.property() + ", " + s.env();
    }

    static boolean vectorModulePresent() {
        return ModuleLayer.boot().findModule(VECTOR_MODULE).isPresent();
    }

    static String vectorApi() {
        if (!vectorModulePresent()) {
            return "not available (start the JVM with --add-modules " + VECTOR_MODULE + "; scalar kernels are used)";
        }
        try {
            return "available (" + VectorProbe.describe() + ")";
        } catch (LinkageError | RuntimeException e) {
            return "module present but unusable: " + e;
        }
    }

    private static String backend() {
        try {
            return Backends.get().name();
        } catch (LinkageError | RuntimeException e) {
            return "unavailable: " + e;
        }
    }

    /** "found at DIR", or what is missing. */
    static String fashionMnist(Path dir) {
        if (!Files.isDirectory(dir)) {
            return "not found at " + dir + " (install the Debian package dataset-fashion-mnist or pass --data DIR)";
        }
        List<String> missing = new ArrayList<>();
        for (String name : List.of("train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte",
                "t10k-labels-idx1-ubyte")) {
            if (!Files.isRegularFile(dir.resolve(name + ".gz")) && !Files.isRegularFile(dir.resolve(name))) {
                missing.add(name + "[.gz]");
            }
        }
        return missing.isEmpty() ? "found at " + dir
                : String.format(Locale.ROOT, "incomplete at %s: missing %s", dir, String.join(", ", missing));
    }

    /** Where unpacked copies of the data files are kept, and how much they hold. */
    static String dataCache(UnpackedCache cache) {
        if (cache == null) {
            return "off (" + UnpackedCache.ENV + "=none, or no absolute directory for it)";
        }
        long files = 0;
        long bytes = 0;
        if (Files.isDirectory(cache.dir())) {
            try (var entries = Files.list(cache.dir())) {
                for (Path p : entries.filter(Files::isRegularFile).toList()) {
                    files++;
                    bytes += Files.size(p);
                }
            } catch (java.io.IOException | java.io.UncheckedIOException e) {
                return cache.dir() + " (unreadable: " + e.getMessage() + ")";
            }
        }
        return String.format(Locale.ROOT, "%s (%d file%s, %.1f MB; %s=DIR moves it, %s=none turns it off)",
                cache.dir(), files, files == 1 ? "" : "s", bytes / 1e6, UnpackedCache.ENV, UnpackedCache.ENV);
    }

    /** Touches Vector API classes; only loaded once the module is known to be present. */
    private static final class VectorProbe {
        static String describe() {
            var species = jdk.incubator.vector.FloatVector.SPECIES_PREFERRED;
            return "preferred float vector " + species.vectorBitSize() + " bits, " + species.length() + " lanes";
        }
    }
}

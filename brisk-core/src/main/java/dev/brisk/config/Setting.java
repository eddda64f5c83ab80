package dev.brisk.config;

/**
 * One setting of Brisk: the system property and environment variable that set it, its default and what it means.
 * A system property wins over the environment variable; a blank value counts as unset. {@link Settings} reads them.
 */
public enum Setting {
    /** The kernel backend. */
    KERNELS("brisk.kernels", null, "auto",
            "kernel backend: scalar or vector; auto takes vector when the Vector API module is present"),
    /** The thread budget that kernels and input pipelines share. */
    THREADS("brisk.threads", "BRISK_THREADS", "available processors, less one from 12 up",
            "thread budget of the process (a positive integer); ThreadBudget.set and --threads override it"),
    /** Whether compiled plans fuse chains of element-wise nodes. */
    FUSION("brisk.fusion", null, "true", "false runs every node of a compiled plan on its own, unfused"),
    /** Whether compiled plans run independent instructions concurrently. */
    CONCURRENT("brisk.concurrent", null, "false",
            "true tries concurrent groups of independent instructions and keeps them where faster; always keeps them"),
    /** Whether a matrix product may be split into a grid of row and column blocks across threads. */
    GEMM_GRID("brisk.gemmGrid", null, "true", "false splits a matrix product across threads by rows only"),
    /** Whether 3x3 stride-1 convolutions may take Winograd's kernels. */
    WINOGRAD("brisk.winograd", null, "true",
            "false keeps 3x3 stride-1 convolutions on the direct kernels instead of Winograd's F(2x2, 3x3) or "
                    + "F(4x4, 3x3)"),
    /** The output tile of Winograd's convolutions: F(2x2, 3x3), F(4x4, 3x3), or chosen per shape. */
    WINOGRAD_TILE("brisk.winogradTile", null, "auto",
            "2 or 4: every Winograd convolution takes F(2x2, 3x3) or F(4x4, 3x3); auto takes F(4x4, 3x3) where it "
                    + "saves a quarter of F(2x2, 3x3)'s multiply-adds or more"),
    /** Chunks per thread for parallel loops whose chunking changes neither bits nor work. */
    CHUNKS("brisk.chunks", null, "4", "chunks per thread of parallel loops, clamped to 1..64"),
    /** How many first training steps leave a core to the JIT compiler. */
    JIT_WARM_UP_STEPS("brisk.jitWarmUpSteps", null, "1",
            "first training steps that run one compute thread short, leaving a core to the JIT compiler; 0 is off"),
    /** Whether the vector kernels ask C2 to always inline their small vector-valued methods. */
    JIT_INLINE("brisk.jitInline", null, "true",
            "false leaves C2 to inline the vector kernels' small vector-valued methods by its own rules, under which "
                    + "a method it declines boxes its vectors on every call"),
    /** How many compiled steps (one per kind and data shape) a step runner keeps. */
    PLAN_CACHE("brisk.planCache", null, "16",
            "compiled steps kept per model and thread, one per kind of step and data shape; least recently used go"),
    /** Where unpacked copies of compressed data files are kept. */
    CACHE_DIR("brisk.cacheDir", "BRISK_CACHE_DIR", "$XDG_CACHE_HOME/brisk, else ~/.cache/brisk",
            "directory (absolute) for unpacked copies of gzip-compressed data files; none turns the cache off"),
    /** The longest CSV line, in characters, that a CSV reader accepts. */
    CSV_MAX_LINE_CHARS("brisk.csvMaxLineChars", null, "4194304",
            "longest CSV line in characters (a positive integer); a longer line is a bad record"),
    /** The most cells a CSV line may have. */
    CSV_MAX_CELLS("brisk.csvMaxCells", null, "1048576",
            "most cells in one CSV line (a positive integer); a line with more is a bad record"),
    /** The most pixels an image of an image directory may declare. */
    MAX_IMAGE_PIXELS("brisk.maxImagePixels", null, "134217728",
            "most pixels (width x height) an image file may declare (a positive integer); a larger one is a bad "
                    + "record"),
    /** Tests only: whether tests on the real Fashion-MNIST and fortunes text fail, not skip, where it is missing. */
    REQUIRE_DATA(null, "BRISK_REQUIRE_DATA", "0",
            "tests only: 1 fails the tests on the real Fashion-MNIST or fortunes text where not installed, instead of"
                    + " skipping"),
    /** Tests only: whether gradient checks print every comparison. */
    GRADCHECK_VERBOSE("brisk.gradcheck.verbose", null, "false", "tests only: true prints every gradient check");

    private final String property;
    private final String env;
    private final String defaultValue;
    private final String meaning;

    Setting(String property, String env, String defaultValue, String meaning) {
        this.property = property;
        this.env = env;
        this.defaultValue = defaultValue;
        this.meaning = meaning;
    }

    /**
     * The system property that sets it, or null when only an environment variable does.
     *
     * @return the property name, e.g. {@code brisk.threads}, or null
     */
    public String property() {
        return property;
    }

    /**
     * The environment variable that sets it when the property is not set, or null when there is none.
     *
     * @return the variable name, e.g. {@code BRISK_THREADS}, or null
     */
    public String env() {
        return env;
    }

    /**
     * Its value when neither the property nor the variable is set (a description where it is computed).
     *
     * @return the default value, or a description of how it is computed
     */
    public String defaultValue() {
        return defaultValue;
    }

    /**
     * What it means, in one line.
     *
     * @return a one-line meaning, as printed by {@code ./brisk info} and listed in docs/configuration.md
     */
    public String meaning() {
        return meaning;
    }
}

package dev.brisk.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The one place that reads Brisk's system properties and environment variables ({@link Setting}). For each, a
 * system property that is set and not blank wins, then the environment variable (where there is one), then the
 * default. The accessors read on every call, so that a property set at run time (as tests do) takes effect; code
 * on a hot path keeps the value in a static final of its own, read once.
 */
public final class Settings {
    private Settings() {
    }

    /** Where a setting's effective value came from. */
    public enum Source {
        /** A {@code -D} system property. */
        SYSTEM_PROPERTY,
        /** An environment variable. */
        ENVIRONMENT_VARIABLE,
        /** Nothing set it. */
        DEFAULT,
        /** A call of the API (the thread budget's {@code ThreadBudget.set}); never reported by this class. */
        API
    }

    /**
     * A setting's value and its source: the setting's {@link Setting#defaultValue default}, or the value as set (or,
     * from {@link Settings#effective(Setting)}, as it takes effect).
     *
     * @param setting the setting described
     * @param value its value as a string: as set, as it takes effect, or the default (a description where the default
     *     is computed)
     * @param source where the value came from
     */
    public record Effective(Setting setting, String value, Source source) {
        /**
         * Where the value came from, in words: "system property brisk.threads", "default", ....
         *
         * @return the source as a phrase naming the property or variable, for {@code ./brisk info}
         */
        public String origin() {
            return switch (source) {
                case SYSTEM_PROPERTY -> "system property " + setting.property();
                case ENVIRONMENT_VARIABLE -> "environment variable " + setting.env();
                case DEFAULT -> "default";
                case API -> "API";
            };
        }
    }

    /**
     * Every setting with its value and source, in the order of {@link Setting}.
     *
     * @return one entry per {@link Setting} constant, each with the value as it takes effect
     */
    public static List<Effective> effective() {
        List<Effective> all = new ArrayList<>();
        for (Setting s : Setting.values()) {
            all.add(effective(s));
        }
        return all;
    }

    /**
     * The value of {@code setting} as it takes effect (as its accessor reads it: {@code brisk.chunks=100} is 64),
     * and where it came from; a value its accessor rejects is shown with the reason.
     *
     * @param setting the setting to look up
     * @return its effective value and source; never null
     */
    public static Effective effective(Setting setting) {
        Effective raw = raw(setting);
        if (raw.source() == Source.DEFAULT) {
            return raw;
        }
        try {
            String value = switch (setting) {
                case KERNELS -> kernels();
                case THREADS -> String.valueOf(threads());
                case FUSION -> String.valueOf(fusion());
                case CONCURRENT -> concurrent();
                case GEMM_GRID -> String.valueOf(gemmGrid());
                case WINOGRAD -> String.valueOf(winograd());
                case WINOGRAD_TILE -> winogradTile() == 0 ? "auto" : String.valueOf(winogradTile());
                case CHUNKS -> String.valueOf(chunks());
                case JIT_WARM_UP_STEPS -> String.valueOf(jitWarmUpSteps());
                case JIT_INLINE -> String.valueOf(jitInline());
                case PLAN_CACHE -> String.valueOf(planCache());
                case CACHE_DIR -> cacheDir();
                case CSV_MAX_LINE_CHARS -> String.valueOf(csvMaxLineChars());
                case CSV_MAX_CELLS -> String.valueOf(csvMaxCells());
                case MAX_IMAGE_PIXELS -> String.valueOf(maxImagePixels());
                case REQUIRE_DATA -> requireData() ? "1" : "0";
                case GRADCHECK_VERBOSE -> String.valueOf(gradCheckVerbose());
            };
            return new Effective(setting, value, raw.source());
        } catch (IllegalArgumentException e) {
            return new Effective(setting, "invalid '" + raw.value() + "': " + e.getMessage(), raw.source());
        }
    }

    /** The value of {@code setting} as set (untrimmed), and where it came from. */
    private static Effective raw(Setting setting) {
        if (setting.property() != null) {
            String value = System.getProperty(setting.property());
            if (value != null && !value.isBlank()) {
                return new Effective(setting, value, Source.SYSTEM_PROPERTY);
            }
        }
        if (setting.env() != null) {
            String value = System.getenv(setting.env());
            if (value != null && !value.isBlank()) {
                return new Effective(setting, value, Source.ENVIRONMENT_VARIABLE);
            }
        }
        return new Effective(setting, setting.defaultValue(), Source.DEFAULT);
    }

    /**
     * The kernel backend asked for: {@code "scalar"} or {@code "vector"} (case and surrounding blanks ignored), or
     * null when not set (the backend then chooses).
     *
     * @return {@code "scalar"}, {@code "vector"} or null
     * @throws IllegalArgumentException for any other value
     */
    public static String kernels() {
        Effective e = raw(Setting.KERNELS);
        if (e.source() == Source.DEFAULT) {
            return null;
        }
        String kernels = e.value().trim().toLowerCase(Locale.ROOT);
        if (!kernels.equals("scalar") && !kernels.equals("vector")) {
            throw new IllegalArgumentException(e.origin() + " must be 'scalar' or 'vector', got '" + e.value() + "'");
        }
        return kernels;
    }

    /**
     * The thread budget set by property or variable, or 0 when neither is set.
     *
     * @return the thread count set, or 0 for "not set" (the budget then follows the machine)
     * @throws IllegalArgumentException when the value set is not a positive integer
     */
    public static int threads() {
        Effective e = raw(Setting.THREADS);
        if (e.source() == Source.DEFAULT) {
            return 0;
        }
        try {
            int n = Integer.parseInt(e.value().trim());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException ex) {
            // reported below
        }
        throw new IllegalArgumentException(e.origin() + " must be a positive integer, got '" + e.value() + "'");
    }

    /**
     * Whether compiled plans fuse element-wise chains: true unless the value is {@code false} (any case).
     *
     * @return false only when fusion is turned off
     */
    public static boolean fusion() {
        return !"false".equalsIgnoreCase(raw(Setting.FUSION).value());
    }

    /**
     * How compiled plans group independent instructions: {@code "false"} (never), {@code "true"} (tried, kept
     * where faster) or {@code "always"}.
     *
     * @return {@code "false"}, {@code "true"} or {@code "always"}
     * @throws IllegalArgumentException for any other value (the match is exact)
     */
    public static String concurrent() {
        Effective e = raw(Setting.CONCURRENT);
        String value = e.value();
        if (!value.equals("false") && !value.equals("true") && !value.equals("always")) {
            throw new IllegalArgumentException(e.origin() + " must be true, false or always, not '" + value + "'");
        }
        return value;
    }

    /**
     * Whether the vector kernels force C2 to inline their vector-valued helpers: true unless the value is
     * {@code false} (any case).
     *
     * @return false only when turned off
     */
    public static boolean jitInline() {
        return !"false".equalsIgnoreCase(raw(Setting.JIT_INLINE).value());
    }

    /**
     * Whether a matrix product may be split into a grid: true unless the value is {@code false} (any case).
     *
     * @return false only when the grid split is turned off
     */
    public static boolean gemmGrid() {
        return !"false".equalsIgnoreCase(raw(Setting.GEMM_GRID).value());
    }

    /**
     * Whether 3x3 stride-1 convolutions may take Winograd's kernels: true unless the value is {@code false} (any
     * case).
     *
     * @return false only when Winograd's kernels are turned off
     */
    public static boolean winograd() {
        return !"false".equalsIgnoreCase(raw(Setting.WINOGRAD).value());
    }

    /**
     * The output tile Winograd's convolutions take: 2 (F(2x2, 3x3)), 4 (F(4x4, 3x3)), or 0 when not set or
     * {@code auto} (any case; the kernels then choose per shape).
     *
     * @return 0, 2 or 4
     * @throws IllegalArgumentException for any other value
     */
    public static int winogradTile() {
        Effective e = raw(Setting.WINOGRAD_TILE);
        String value = e.value().trim();
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "auto" -> 0;
            case "2" -> 2;
            case "4" -> 4;
            default -> throw new IllegalArgumentException(e.origin() + " must be 2, 4 or auto, got '" + e.value()
                    + "'");
        };
    }

    /**
     * Chunks per thread of parallel loops, clamped to 1..64; a value that is not an integer gives the default.
     *
     * @return chunks per thread, between 1 and 64
     */
    public static int chunks() {
        return Math.clamp(integer(Setting.CHUNKS), 1, 64);
    }

    /**
     * Training steps that leave a core to the JIT compiler; a value that is not an integer gives the default.
     *
     * @return the number of warm-up steps
     */
    public static int jitWarmUpSteps() {
        return integer(Setting.JIT_WARM_UP_STEPS);
    }

    /**
     * How many compiled steps a step runner keeps ({@code brisk.planCache}): one per kind of step and shape of its
     * data, the least recently used forgotten first. At least 1; a value that is not an integer gives 16.
     *
     * @return the number of plans kept
     */
    public static int planCache() {
        return Math.max(1, integer(Setting.PLAN_CACHE));
    }

    /**
     * The cache directory as set (trimmed), {@code none} when the cache is turned off, or null when not set (the
     * cache then goes under {@code $XDG_CACHE_HOME} or the home directory).
     *
     * @return the directory, {@code "none"}, or null
     */
    public static String cacheDir() {
        Effective e = raw(Setting.CACHE_DIR);
        return e.source() == Source.DEFAULT ? null : e.value().trim();
    }

    /**
     * The longest CSV line a CSV reader accepts, in characters.
     *
     * @return the limit ({@code brisk.csvMaxLineChars})
     * @throws IllegalArgumentException when the value set is not a positive integer
     */
    public static int csvMaxLineChars() {
        return (int) positive(Setting.CSV_MAX_LINE_CHARS, Integer.MAX_VALUE);
    }

    /**
     * The most cells a CSV line may have.
     *
     * @return the limit ({@code brisk.csvMaxCells})
     * @throws IllegalArgumentException when the value set is not a positive integer
     */
    public static int csvMaxCells() {
        return (int) positive(Setting.CSV_MAX_CELLS, Integer.MAX_VALUE);
    }

    /**
     * The most pixels (width x height) an image file may declare before it is decoded.
     *
     * @return the limit ({@code brisk.maxImagePixels})
     * @throws IllegalArgumentException when the value set is not a positive integer
     */
    public static long maxImagePixels() {
        return positive(Setting.MAX_IMAGE_PIXELS, Long.MAX_VALUE);
    }

    /** The value of {@code setting}, a positive integer up to {@code max}; anything else set is an error. */
    private static long positive(Setting setting, long max) {
        Effective e = raw(setting);
        try {
            long n = Long.parseLong(e.value().trim());
            if (n >= 1 && n <= max) {
                return n;
            }
        } catch (NumberFormatException ex) {
            // reported below
        }
        throw new IllegalArgumentException(e.origin() + " must be an integer from 1 to " + max + ", got '"
                + e.value() + "'");
    }

    /**
     * Whether tests on the real data set must fail where it is missing: the variable is exactly {@code 1}.
     *
     * @return true when {@code BRISK_REQUIRE_DATA=1}
     */
    public static boolean requireData() {
        return "1".equals(raw(Setting.REQUIRE_DATA).value());
    }

    /**
     * Whether gradient checks print every comparison: the value is {@code true} (any case).
     *
     * @return true to print every gradient comparison
     */
    public static boolean gradCheckVerbose() {
        return "true".equalsIgnoreCase(raw(Setting.GRADCHECK_VERBOSE).value());
    }

    /** As {@link Integer#getInteger(String, int)}: the value decoded, or the default where it does not decode. */
    private static int integer(Setting setting) {
        int fallback = Integer.parseInt(setting.defaultValue());
        Effective e = raw(setting);
        if (e.source() == Source.DEFAULT) {
            return fallback;
        }
        try {
            return Integer.decode(e.value());
        } catch (NumberFormatException ex) {
            return fallback;
        }
    }
}

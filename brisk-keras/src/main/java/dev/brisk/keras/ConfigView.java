package dev.brisk.keras;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A Keras {@code get_config()} dictionary read with types checked: every error names what the config describes
 * ({@code layer 'dense_1' (Dense)}) and the option. A factory that makes an object from its config reads the
 * options it supports with {@link #integer}, {@link #decimal} and the rest, and refuses the ones Brisk does not
 * have with {@link #requireAbsentOr}, so that a file never silently becomes a different model.
 */
public final class ConfigView {
    private final String what;
    private final Map<String, Object> config;

    /**
     * A view of {@code config}.
     *
     * @param what what the config describes, for errors, e.g. {@code layer 'dense' (Dense)}
     * @param config the configuration
     */
    public ConfigView(String what, Map<String, Object> config) {
        this.what = what;
        this.config = config == null ? Map.of() : config;
    }

    /**
     * What the config describes, as errors name it.
     *
     * @return e.g. {@code layer 'dense' (Dense)}
     */
    public String what() {
        return what;
    }

    /**
     * Whether the option is present and not null.
     *
     * @param key the option
     * @return true if it has a value
     */
    public boolean has(String key) {
        return config.get(key) != null;
    }

    /**
     * Whether the option is written out as JSON {@code null} (Python's {@code None}), which for some options
     * differs from leaving it out (Bidirectional's {@code merge_mode}: absent means Keras' default, None means no
     * merge).
     *
     * @param key the option
     * @return true if the key is present with a null value
     */
    public boolean isNull(String key) {
        return config.containsKey(key) && config.get(key) == null;
    }

    /**
     * The raw value of an option, or null.
     *
     * @param key the option
     * @return the value, or null
     */
    public Object raw(String key) {
        return config.get(key);
    }

    /**
     * An error about an option.
     *
     * @param key the option
     * @param message what is wrong with it
     * @return the error, to throw
     */
    public RuntimeException error(String key, String message) {
        return new ConfigError(what + ", option '" + key + "': " + message);
    }

    /**
     * A string option.
     *
     * @param key the option
     * @param fallback the value when absent or null
     * @return the value
     */
    public String string(String key, String fallback) {
        Object v = config.get(key);
        if (v == null) {
            return fallback;
        }
        if (!(v instanceof String s)) {
            throw error(key, "expected a string, found " + v);
        }
        return s;
    }

    /**
     * A boolean option.
     *
     * @param key the option
     * @param fallback the value when absent or null
     * @return the value
     */
    public boolean bool(String key, boolean fallback) {
        Object v = config.get(key);
        if (v == null) {
            return fallback;
        }
        if (!(v instanceof Boolean b)) {
            throw error(key, "expected true or false, found " + v);
        }
        return b;
    }

    /**
     * An integer option between {@code min} and {@code max}.
     *
     * @param key the option
     * @param fallback the value when absent or null
     * @param min the smallest value accepted
     * @param max the largest value accepted
     * @return the value
     */
    public int integer(String key, int fallback, int min, int max) {
        Object v = config.get(key);
        if (v == null) {
            return fallback;
        }
        return checkedInt(key, v, min, max);
    }

    /**
     * A required integer option between {@code min} and {@code max}.
     *
     * @param key the option
     * @param min the smallest value accepted
     * @param max the largest value accepted
     * @return the value
     */
    public int requiredInt(String key, int min, int max) {
        Object v = config.get(key);
        if (v == null) {
            throw error(key, "missing");
        }
        return checkedInt(key, v, min, max);
    }

    private int checkedInt(String key, Object v, long min, long max) {
        if (!(v instanceof Number n) || n instanceof Double || n instanceof Float
                || n.longValue() < min || n.longValue() > max) {
            if (v instanceof Double d && d == Math.rint(d) && d >= min && d <= max) {
                return d.intValue();
            }
            throw error(key, "expected an integer from " + min + " to " + max + ", found " + v);
        }
        return n.intValue();
    }

    /**
     * A long option.
     *
     * @param key the option
     * @param fallback the value when absent or null
     * @return the value
     */
    public long longValue(String key, long fallback) {
        Object v = config.get(key);
        if (v == null) {
            return fallback;
        }
        if (!(v instanceof Number n) || n instanceof Double || n instanceof Float) {
            throw error(key, "expected an integer, found " + v);
        }
        return n.longValue();
    }

    /**
     * A number option, as a float.
     *
     * @param key the option
     * @param fallback the value when absent or null
     * @return the value
     */
    public float decimal(String key, float fallback) {
        Object v = config.get(key);
        if (v == null) {
            return fallback;
        }
        if (!(v instanceof Number n)) {
            throw error(key, "expected a number, found " + v);
        }
        return n.floatValue();
    }

    /**
     * A list of integers (Keras also writes a single integer for a 1-element tuple, or for all axes alike).
     *
     * @param key the option
     * @param length the list's length (a single integer is repeated to it)
     * @param min the smallest value accepted
     * @param max the largest value accepted
     * @return the values, or null when absent
     */
    public int[] ints(String key, int length, int min, int max) {
        Object v = config.get(key);
        if (v == null) {
            return null;
        }
        if (v instanceof Number) {
            int x = checkedInt(key, v, min, max);
            int[] out = new int[length];
            java.util.Arrays.fill(out, x);
            return out;
        }
        if (!(v instanceof List<?> l) || (length > 0 && l.size() != length)) {
            throw error(key, "expected " + (length > 0 ? length + " integers" : "a list of integers") + ", found "
                    + v);
        }
        int[] out = new int[l.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = checkedInt(key, l.get(i), min, max);
        }
        return out;
    }

    /**
     * A nested object's config, or null when the option is absent or null.
     *
     * @param key the option
     * @return the nested object as a map, or null
     */
    @SuppressWarnings("unchecked")
    public Map<String, Object> object(String key) {
        Object v = config.get(key);
        if (v == null) {
            return null;
        }
        if (!(v instanceof Map)) {
            throw error(key, "expected an object, found " + v);
        }
        return (Map<String, Object>) v;
    }

    /**
     * A list option.
     *
     * @param key the option
     * @return the list, or an empty list when absent or null
     */
    public List<Object> list(String key) {
        Object v = config.get(key);
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof List<?> l)) {
            throw error(key, "expected a list, found " + v);
        }
        return new ArrayList<>(l);
    }

    /**
     * Refuses an option Brisk does not have unless it is absent, null, or one of the values Brisk behaves as.
     *
     * @param key the option
     * @param accepted the values that mean what Brisk does (compared after numbers are widened to double)
     */
    public void requireAbsentOr(String key, Object... accepted) {
        Object v = config.get(key);
        if (v == null) {
            return;
        }
        for (Object a : accepted) {
            if (same(v, a)) {
                return;
            }
        }
        throw error(key, "value " + v + " is not supported by Brisk" + (accepted.length == 0 ? ""
                : " (supported: " + java.util.Arrays.toString(accepted) + ")"));
    }

    private static boolean same(Object v, Object a) {
        if (v instanceof Number x && a instanceof Number y) {
            return x.doubleValue() == y.doubleValue();
        }
        return Objects.equals(v, a);
    }

    /**
     * Refuses any option not in {@code known}, so an option added by a newer Keras is an error, not ignored.
     *
     * @param known the options the factory reads or checks
     */
    public void requireOnly(Set<String> known) {
        for (String k : config.keySet()) {
            if (!known.contains(k)) {
                throw error(k, "unknown option (Brisk reads " + new java.util.TreeSet<>(known) + ")");
            }
        }
    }
}

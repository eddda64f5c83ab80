package dev.brisk.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.commons.cli.CommandLine;

/**
 * The typed values of one parsed command line. A value that does not convert is a {@link UsageException} naming the
 * option and the value, e.g. {@code Invalid value for option '--epochs': 'many' is not an integer}.
 */
final class OptionValues {
    private final CommandLine line;

    OptionValues(CommandLine line) {
        this.line = line;
    }

    /** Whether the flag {@code --name} was given. */
    boolean flag(String name) {
        return line.hasOption(name);
    }

    /** {@code --name}'s value converted, or {@code fallback} when absent; the converter's message on failure. */
    <T> T get(String name, Function<String, T> converter, T fallback) {
        String[] values = line.getOptionValues(name);
        if (values == null) {
            return fallback;
        }
        if (values.length > 1) {
            throw new UsageException("option '--" + name + "' should be specified only once");
        }
        return convert(name, values[0], converter);
    }

    /** An integer option, or {@code fallback} (which may be null) when absent. */
    Integer integer(String name, Integer fallback) {
        return get(name, OptionValues::parseInt, fallback);
    }

    /** A long option, or {@code fallback} (which may be null) when absent. */
    Long longInteger(String name, Long fallback) {
        return get(name, OptionValues::parseLong, fallback);
    }

    /** A path option, or {@code fallback} (which may be null) when absent. */
    Path path(String name, Path fallback) {
        return get(name, Path::of, fallback);
    }

    /**
     * A comma-separated list ({@code --name a,b}; the option may be repeated, its lists joined), each item
     * converted; {@code fallback} when absent.
     */
    <T> List<T> list(String name, Function<String, T> converter, List<T> fallback) {
        String[] values = line.getOptionValues(name);
        if (values == null) {
            return fallback;
        }
        List<T> items = new ArrayList<>();
        for (String value : values) {
            for (String item : value.split(",", -1)) {
                items.add(convert(name, item, converter));
            }
        }
        return items;
    }

    private static <T> T convert(String name, String value, Function<String, T> converter) {
        try {
            return converter.apply(value);
        } catch (IllegalArgumentException e) {
            throw new UsageException("Invalid value for option '--" + name + "': " + e.getMessage());
        }
    }

    static int parseInt(String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + value + "' is not an integer");
        }
    }

    static long parseLong(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + value + "' is not an integer");
        }
    }

    /**
     * Refuses a thread budget outside {@link dev.brisk.parallel.ThreadBudget}'s limits (at least 1, at most a few
     * times the available processors) with a usage error naming {@code option}.
     */
    static void requireThreadBudget(String option, Integer threads) {
        if (threads == null) {
            return;
        }
        try {
            dev.brisk.parallel.ThreadBudget.check(threads, "Invalid value for option '" + option + "'");
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}

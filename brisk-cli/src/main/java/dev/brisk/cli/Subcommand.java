package dev.brisk.cli;

import java.util.List;
import org.apache.commons.cli.Options;

/**
 * One command of {@code brisk} ({@code train}, {@code bench}, ...): its name, help text and options, how it takes
 * its settings from a parsed command line, and its run. A fresh instance serves one command line.
 */
abstract class Subcommand {
    private final String name;
    private final List<String> description;
    private final Options options;

    /**
     * @param name the word after {@code brisk}, e.g. {@code train}
     * @param description the help text's paragraphs; the first is also the summary in {@code brisk --help}
     * @param options the options in the order the help lists them, {@code -h} and {@code -V} last
     *     ({@link CliOptions#of})
     */
    Subcommand(String name, List<String> description, Options options) {
        this.name = name;
        this.description = description;
        this.options = options;
    }

    final String name() {
        return name;
    }

    final List<String> description() {
        return description;
    }

    final Options options() {
        return options;
    }

    /** Takes the settings from the parsed options; a bad value is a {@link UsageException}. */
    abstract void read(OptionValues values);

    /**
     * Runs the command and returns its exit code. Out-of-range settings are a {@link UsageException} (exit code 2);
     * an {@link java.io.IOException}, {@link java.io.UncheckedIOException} or {@link IllegalArgumentException} is a
     * failed run reported in one line (exit code 1).
     */
    abstract int call() throws Exception;
}

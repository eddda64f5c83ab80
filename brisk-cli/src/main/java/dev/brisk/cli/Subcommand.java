package dev.brisk.cli;

import java.util.List;
import org.apache.commons.cli.Options;

/**
 * One command of {@code brisk} ({@code train}, {@code bench}, ...): its name, help text and options, how it takes
 * its settings from a parsed command line, and its run. A fresh instance serves one command line.
 */
interface Subcommand {
    /** The word after {@code brisk}, e.g. {@code train}. */
    String name();

    /** The help text's paragraphs; the first is also the command's summary in {@code brisk --help}. */
    List<String> description();

    /** The options in the order the help lists them, {@code -h} and {@code -V} last ({@link CliOptions#of}). */
    Options options();

    /** Takes the settings from the parsed options; a bad value is a {@link UsageException}. */
    void read(OptionValues values);

    /**
     * Runs the command and returns its exit code. Out-of-range settings are a {@link UsageException} (exit code 2);
     * an {@link java.io.IOException}, {@link java.io.UncheckedIOException} or {@link IllegalArgumentException} is a
     * failed run reported in one line (exit code 1).
     */
    int call() throws Exception;
}

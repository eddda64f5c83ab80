package dev.brisk.cli;

import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/**
 * Declares the options of the {@code brisk} commands with commons-cli: long options with a value, flags, and the
 * {@code -h/--help} and {@code -V/--version} that every command has.
 */
final class CliOptions {
    static final String HELP = "help";
    static final String VERSION = "version";

    private CliOptions() {
    }

    /** {@code --name LABEL} (or {@code --name=LABEL}). */
    static Option valued(String name, String label, String description) {
        return Option.builder().longOpt(name).hasArg().argName(label).desc(description).get();
    }

    /** {@code --name LABEL} that must be given. */
    static Option required(String name, String label, String description) {
        return Option.builder().longOpt(name).hasArg().argName(label).desc(description).required().get();
    }

    /** {@code --name}, without a value. */
    static Option flag(String name, String description) {
        return Option.builder().longOpt(name).desc(description).get();
    }

    /** These options in this order, then {@code -h/--help} and {@code -V/--version}. */
    static Options of(Option... options) {
        Options all = new Options();
        for (Option o : options) {
            all.addOption(o);
        }
        all.addOption(Option.builder("h").longOpt(HELP).desc("Show this help message and exit.").get());
        all.addOption(Option.builder("V").longOpt(VERSION).desc("Print version information and exit.").get());
        return all;
    }
}

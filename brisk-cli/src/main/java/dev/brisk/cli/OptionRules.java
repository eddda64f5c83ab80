package dev.brisk.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * A command's usage rules as a table: each rule says when the options break it and what to tell the user, and
 * {@link #check} raises the first broken one as a usage error (exit code 2), so the rules read as a list in the
 * order they are checked rather than as a chain of {@code if} blocks.
 */
final class OptionRules {
    /**
     * One rule.
     *
     * @param broken whether the options break it
     * @param message the usage error's text, made only when the rule is broken (it may read options that are only
     *     set then)
     */
    record Rule(boolean broken, Supplier<String> message) {
    }

    private OptionRules() {
    }

    /**
     * A rule that the options break when {@code broken} holds.
     *
     * @param broken whether they break it
     * @param message the error's text
     * @return the rule
     */
    static Rule refuse(boolean broken, Supplier<String> message) {
        return new Rule(broken, message);
    }

    /**
     * A numeric option, when given, is at least {@code min}.
     *
     * @param option the option's name, e.g. {@code --epochs}
     * @param value its value, or null when absent
     * @param min the least value allowed
     * @return the rule
     */
    static Rule atLeast(String option, Integer value, int min) {
        return new Rule(value != null && value < min,
                () -> "Invalid value for option '" + option + "': must be at least " + min + " but was " + value);
    }

    /**
     * An output file option, when given, is not a directory.
     *
     * @param option the option's name, e.g. {@code --onnx}
     * @param file its value, or null when absent
     * @param example a file name to suggest inside the directory, e.g. {@code model.onnx}
     * @return the rule
     */
    static Rule notDirectory(String option, Path file, String example) {
        return new Rule(file != null && Files.isDirectory(file), () -> "Invalid value for option '" + option + "': "
                + file + " is a directory; give a file name such as " + file.resolve(example));
    }

    /**
     * Raises the first broken rule.
     *
     * @param rules the rules in the order they are checked
     * @throws UsageException with the first broken rule's message
     */
    static void check(Rule... rules) {
        for (Rule r : rules) {
            if (r.broken()) {
                throw new UsageException(r.message().get());
            }
        }
    }
}

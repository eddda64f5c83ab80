package dev.brisk.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.help.HelpFormatter;
import org.apache.commons.cli.help.TableDefinition;
import org.apache.commons.cli.help.TextHelpAppendable;
import org.apache.commons.cli.help.TextStyle;

/**
 * A command's help, laid out by commons-cli's {@link HelpFormatter}: the usage line, the description, the options
 * in the order they were declared and, for {@code brisk} itself, the commands. Loaded only when help is printed.
 */
final class HelpPage {
    private static final int WIDTH = 80;

    private final StringBuilder page = new StringBuilder();
    private final TextHelpAppendable text = new TextHelpAppendable(page);
    private final HelpFormatter formatter;

    private HelpPage() {
        text.setMaxWidth(WIDTH);
        formatter = HelpFormatter.builder().setHelpAppendable(text).setShowSince(false)
                .setComparator((a, b) -> 0) // the sort is stable: declaration order
                .get();
    }

    /** {@code brisk <command> --help}. */
    static void print(Subcommand command, PrintStream out) {
        HelpPage help = new HelpPage();
        help.usage("brisk " + command.name(), command.options(), "", command.description());
        help.writeTo(out);
    }

    /** {@code brisk --help}: its usage and options, then the commands with their summaries. */
    static void printTop(Options options, String description, List<Subcommand> commands, String helpSummary,
            PrintStream out) {
        HelpPage help = new HelpPage();
        help.usage("brisk", options, " COMMAND [options]", List.of(description));
        List<List<String>> rows = new ArrayList<>();
        for (Subcommand c : commands) {
            rows.add(List.of(c.name(), c.description().get(0)));
        }
        rows.add(List.of("help", helpSummary));
        TextStyle.Builder style = TextStyle.builder().setAlignment(TextStyle.Alignment.LEFT);
        TextStyle name = style.setScalable(false).get();
        TextStyle summary = style.setScalable(true).setLeftPad(HelpFormatter.DEFAULT_COLUMN_SPACING).get();
        help.table(TableDefinition.from("", List.of(name, summary), List.of("Commands", "Description"), rows));
        help.writeTo(out);
    }

    private void usage(String command, Options options, String operands, List<String> description) {
        try {
            text.setIndent(4);
            text.appendParagraph("Usage: " + command + " " + formatter.toSyntaxOptions(options) + operands);
            text.setIndent(0);
            for (String paragraph : description) {
                text.printWrapped(paragraph);
            }
            page.append(System.lineSeparator());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        table(formatter.getTableDefinition(options.getOptions()));
    }

    /**
     * Prints the table with continuation lines aligned under the first line of their cell. (commons-cli 1.11 drops
     * the hanging indent of a continuation line that fills its column, so with one the lines would not align.)
     */
    private void table(TableDefinition table) {
        List<TextStyle> styles = new ArrayList<>();
        for (TextStyle style : table.columnTextStyles()) {
            styles.add(TextStyle.builder().setTextStyle(style).setIndent(0).get());
        }
        try {
            formatter.printOptions(TableDefinition.from(table.caption(), styles, table.headers(), table.rows()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The page without the spaces that pad the table's cells at line ends. */
    private void writeTo(PrintStream out) {
        page.toString().lines().forEach(line -> out.println(line.stripTrailing()));
        out.flush();
    }
}

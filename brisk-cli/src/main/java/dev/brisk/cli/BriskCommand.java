package dev.brisk.cli;

import dev.brisk.data.BadRecordException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.MissingArgumentException;
import org.apache.commons.cli.MissingOptionException;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;
import org.apache.commons.cli.UnrecognizedOptionException;

/**
 * The {@code brisk} command: {@code train}, {@code evaluate}, {@code predict}, {@code summary}, {@code export}, {@code bench}, {@code scaling}, {@code info} and {@code help}.
 *
 * <p>Exit codes: 0 success, 1 the run failed (missing data, bad file: one line naming the problem, no stack trace),
 * 2 bad command line (a message naming the option and the value, then the command's usage).
 */
public final class BriskCommand {
    static final String DESCRIPTION =
            "Keras-style deep learning for the JVM: train and report on the reference workloads.";
    static final String HELP_SUMMARY = "Display help information about the specified command.";
    static final List<String> COMMANDS = List.of("train", "evaluate", "predict", "summary", "export", "bench", "scaling", "info");
    private static final Options OPTIONS = CliOptions.of();

    private BriskCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Runs {@code brisk args...} as {@code main} does, without exiting: help and version go to {@code out}, usage
     * errors and failures to {@code err}; the commands print their results on {@code System.out}.
     *
     * @return the exit code
     */
    static int run(String[] args, PrintStream out, PrintStream err) {
        CommandLine top;
        try {
            top = parser().parse(OPTIONS, args, true); // stops at the command's name
        } catch (ParseException e) {
            return usageError(err, message(e), null);
        }
        if (top.hasOption(CliOptions.HELP)) {
            printTopHelp(out);
            return 0;
        }
        if (top.hasOption(CliOptions.VERSION)) {
            Version.print(out);
            return 0;
        }
        List<String> rest = top.getArgList();
        if (rest.isEmpty()) {
            return usageError(err, "Missing required subcommand (train, evaluate, predict, summary, export, bench, scaling, info or help)", null);
        }
        String name = rest.get(0);
        String[] commandArgs = rest.subList(1, rest.size()).toArray(new String[0]);
        if (name.equals("help")) {
            return help(commandArgs, out, err);
        }
        Subcommand command = create(name);
        if (command == null) {
            return usageError(err, name.startsWith("-") ? "Unknown option: '" + name + "'"
                    : "Unknown subcommand '" + name + "'", null);
        }
        return run(command, commandArgs, out, err);
    }

    private static int run(Subcommand command, String[] args, PrintStream out, PrintStream err) {
        try {
            CommandLine line = null;
            try {
                line = parse(command, args);
            } catch (MissingOptionException e) {
                // Thrown once every other token has parsed: -h or -V among them still asks for help or the version.
                if (!asks(args, 'h', CliOptions.HELP) && !asks(args, 'V', CliOptions.VERSION)) {
                    throw new UsageException(missing(e));
                }
            }
            if (line != null ? line.hasOption(CliOptions.HELP) : asks(args, 'h', CliOptions.HELP)) {
                HelpPage.print(command, out);
                return 0;
            }
            if (line == null || line.hasOption(CliOptions.VERSION)) {
                Version.print(out);
                return 0;
            }
            command.read(new OptionValues(line));
            return command.call();
        } catch (UsageException e) {
            return usageError(err, e.getMessage(), command);
        } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
            String msg = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
            err.println("brisk " + command.name() + ": " + msg);
            err.flush();
            return 1;
        } catch (Exception e) {
            // A bad record of the user's data says what and where (file, line, column) in its message, however deep
            // in the pipeline's threads it was thrown: that message is the whole answer, a stack trace only hides it.
            BadRecordException bad = badRecord(e);
            if (bad != null) {
                err.println("brisk " + command.name() + ": " + bad.getMessage());
            } else {
                e.printStackTrace(err);
            }
            err.flush();
            return 1;
        }
    }

    /** The bad record {@code e} is or was caused by, else null. */
    private static BadRecordException badRecord(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BadRecordException bad) {
                return bad;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }

    /**
     * Parses {@code <command> [options]} into the command's settings without running it (for tests).
     *
     * @throws UsageException for an unknown command, option or value
     */
    static Subcommand parse(String... args) {
        Subcommand command = args.length == 0 ? null : create(args[0]);
        if (command == null) {
            throw new UsageException("Unknown subcommand " + (args.length == 0 ? "(none)" : "'" + args[0] + "'"));
        }
        try {
            command.read(new OptionValues(parse(command, Arrays.copyOfRange(args, 1, args.length))));
        } catch (MissingOptionException e) {
            throw new UsageException(missing(e));
        }
        return command;
    }

    /** The command's options parsed; messages in words for every parse error but a missing required option. */
    private static CommandLine parse(Subcommand command, String[] args) throws MissingOptionException {
        CommandLine line;
        try {
            line = parser().parse(command.options(), args);
        } catch (MissingOptionException e) {
            throw e;
        } catch (ParseException e) {
            throw new UsageException(message(e));
        }
        List<String> unmatched = line.getArgList();
        if (!unmatched.isEmpty()) {
            throw new UsageException((unmatched.size() == 1 ? "Unmatched argument: '" : "Unmatched arguments: '")
                    + String.join("', '", unmatched) + "'");
        }
        return line;
    }

    /** No abbreviated options: {@code --epoch} is an error, not {@code --epochs}. */
    private static DefaultParser parser() {
        return DefaultParser.builder().setAllowPartialMatching(false).get();
    }

    private static Subcommand create(String name) {
        return switch (name) {
            case "train" -> new TrainCommand();
            case "evaluate" -> new EvaluateCommand();
            case "predict" -> new PredictCommand();
            case "summary" -> new SummaryCommand();
            case "export" -> new ExportCommand();
            case "bench" -> new BenchCommand();
            case "scaling" -> new ScalingCommand();
            case "info" -> new InfoCommand();
            default -> null;
        };
    }

    /** {@code brisk help [command]}. */
    private static int help(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            printTopHelp(out);
            return 0;
        }
        Subcommand command = create(args[0]);
        if (command == null) {
            return usageError(err, "Unknown subcommand '" + args[0] + "'", null);
        }
        HelpPage.print(command, out);
        return 0;
    }

    private static void printTopHelp(PrintStream out) {
        HelpPage.printTop(OPTIONS, DESCRIPTION, COMMANDS.stream().map(BriskCommand::create).toList(), HELP_SUMMARY,
                out);
    }

    /** The message, then the usage of the command (of {@code brisk} when null) on {@code err}: exit code 2. */
    private static int usageError(PrintStream err, String message, Subcommand command) {
        err.println(message);
        if (command == null) {
            printTopHelp(err);
        } else {
            HelpPage.print(command, err);
        }
        err.flush();
        return 2;
    }

    /** Whether {@code --name}, or {@code -X} alone or among short flags (such as {@code -hV}), is an option here. */
    private static boolean asks(String[] args, char shortName, String longName) {
        for (String a : args) {
            if (a.equals("--")) {
                return false;
            }
            if (a.equals("--" + longName) || isShortFlags(a) && a.indexOf(shortName) > 0) {
                return true;
            }
        }
        return false;
    }

    /** {@code -h}, {@code -V}, {@code -hV}, ...: the only short options there are. */
    private static boolean isShortFlags(String arg) {
        if (arg.length() < 2 || arg.charAt(0) != '-') {
            return false;
        }
        for (int i = 1; i < arg.length(); i++) {
            if (arg.charAt(i) != 'h' && arg.charAt(i) != 'V') {
                return false;
            }
        }
        return true;
    }

    private static String message(ParseException e) {
        if (e instanceof UnrecognizedOptionException u) {
            return "Unknown option: '" + u.getOption() + "'";
        }
        if (e instanceof MissingArgumentException m) {
            Option o = m.getOption();
            return "Missing required parameter for option '--" + o.getLongOpt() + "' (" + o.getArgName() + ")";
        }
        return e.getMessage();
    }

    private static String missing(MissingOptionException e) {
        StringBuilder names = new StringBuilder();
        for (Object key : e.getMissingOptions()) {
            names.append(names.isEmpty() ? "'--" : ", '--").append(key).append('\'');
        }
        return "Missing required option: " + names;
    }

    /** The version from the jar manifest (Maven project version), or "dev" when run from classes. */
    static final class Version {
        private Version() {
        }

        static void print(PrintStream out) {
            out.println("brisk " + version());
            out.println("Java " + Runtime.version());
            out.flush();
        }

        static String version() {
            String v = BriskCommand.class.getPackage().getImplementationVersion();
            return v != null ? v : "dev";
        }
    }
}

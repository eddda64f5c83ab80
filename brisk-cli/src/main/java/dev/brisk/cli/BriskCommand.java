package dev.brisk.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code brisk} command: {@code train}, {@code bench}, {@code scaling} and {@code info}.
 *
 * <p>Exit codes: 0 success, 1 the run failed (missing data, bad file: one line naming the problem, no stack trace),
 * 2 bad command line (picocli's message and usage).
 */
@Command(name = "brisk",
        mixinStandardHelpOptions = true,
        versionProvider = BriskCommand.Version.class,
        description = "Keras-style deep learning for the JVM: train and report on the reference workloads.",
        subcommands = {TrainCommand.class, BenchCommand.class, ScalingCommand.class, InfoCommand.class,
            CommandLine.HelpCommand.class})
public final class BriskCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line (error handling included), for {@code main} and tests. */
    public static CommandLine commandLine() {
        CommandLine cmd = new CommandLine(new BriskCommand());
        cmd.setExecutionExceptionHandler(new ErrorsInWords());
        return cmd;
    }

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "Missing required subcommand (train, info or help)");
    }

    /**
     * Failures the user can fix (missing or corrupt data, an invalid setting reported by the library) are printed as
     * one line with exit code 1; anything else is a bug and keeps its stack trace.
     */
    static final class ErrorsInWords implements IExecutionExceptionHandler {
        @Override
        public int handleExecutionException(Exception ex, CommandLine cmd, CommandLine.ParseResult parseResult) {
            PrintWriter err = cmd.getErr();
            if (ex instanceof IOException || ex instanceof UncheckedIOException
                    || ex instanceof IllegalArgumentException) {
                String msg = ex.getMessage() != null ? ex.getMessage() : ex.getClass().getSimpleName();
                err.println("brisk " + cmd.getCommandName() + ": " + msg);
            } else {
                ex.printStackTrace(err);
            }
            err.flush();
            return CommandLine.ExitCode.SOFTWARE;
        }
    }

    /** The version from the jar manifest (Maven project version), or "dev" when run from classes. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"brisk " + version(), "Java " + Runtime.version()};
        }

        static String version() {
            String v = BriskCommand.class.getPackage().getImplementationVersion();
            return v != null ? v : "dev";
        }
    }
}

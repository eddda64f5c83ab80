package dev.brisk.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/**
 * One run of the {@code brisk} command line inside the test's JVM: its exit code, what it printed on
 * {@code System.out} (where the commands write their results; echoed to the test's output too) and picocli's
 * error stream.
 */
record CliRun(int code, String out, String err) {
    /** Runs {@code brisk args...} as {@code main} would, without exiting. */
    static CliRun run(String... args) {
        PrintStream savedOut = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        int code;
        try (PrintStream capture = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
            System.setOut(capture);
            CommandLine cmd = BriskCommand.commandLine();
            cmd.setErr(new PrintWriter(err));
            code = cmd.execute(args);
        } finally {
            System.setOut(savedOut);
        }
        String out = buf.toString(StandardCharsets.UTF_8);
        System.out.print(out);
        return new CliRun(code, out, err.toString());
    }
}

package dev.brisk.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * One run of the {@code brisk} command line inside the test's JVM: its exit code, what it printed on
 * {@code System.out} (where the commands write their results and help goes; echoed to the test's output too) and
 * its error stream.
 */
record CliRun(int code, String out, String err) {
    /** Runs {@code brisk args...} as {@code main} would, without exiting. */
    static CliRun run(String... args) {
        PrintStream savedOut = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        ByteArrayOutputStream errBuf = new ByteArrayOutputStream();
        int code;
        try (PrintStream capture = new PrintStream(buf, true, StandardCharsets.UTF_8);
                PrintStream err = new PrintStream(errBuf, true, StandardCharsets.UTF_8)) {
            System.setOut(capture);
            code = BriskCommand.run(args, capture, err);
        } finally {
            System.setOut(savedOut);
        }
        String out = buf.toString(StandardCharsets.UTF_8);
        System.out.print(out);
        return new CliRun(code, out, errBuf.toString(StandardCharsets.UTF_8));
    }
}

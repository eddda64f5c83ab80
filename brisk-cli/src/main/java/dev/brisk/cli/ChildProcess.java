package dev.brisk.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What a finished child process printed (stdout and stderr together, line by line), its exit code, and the
 * machine's CPU time from its start to its exit ({@link HostCpu}, whose steal says how much the hypervisor took
 * during the run). The benchmark runs Brisk and its peers this way, one child at a time.
 *
 * @param lines every line the child printed, in order
 * @param exitCode the child's exit code
 * @param host the machine's CPU time while the child ran
 */
record ChildProcess(List<String> lines, int exitCode, HostCpu host) {
    /** How many of the last lines a failure message shows. */
    private static final int TAIL_LINES = 15;

    /**
     * Runs {@code command} to its end. An executable that cannot be started is an {@link IOException} from
     * {@link ProcessBuilder#start()} (which names it).
     */
    static ChildProcess run(List<String> command) throws IOException, InterruptedException {
        HostCpu before = HostCpu.now();
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                lines.add(line);
            }
        }
        int exit = process.waitFor();
        return new ChildProcess(List.copyOf(lines), exit, HostCpu.now().since(before));
    }

    /** The first line starting with {@code prefix}, or null. */
    String find(String prefix) {
        for (String line : lines) {
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        return null;
    }

    /** The last lines the child printed, joined by newlines: what a failure message shows. */
    String tail() {
        return String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
    }
}

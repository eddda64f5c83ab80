package dev.brisk.cli;

import dev.brisk.cli.Workloads.Workload;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A peer framework's twins of the workloads: a script of {@code tools/peers} run by an interpreter, which trains one
 * workload per run and ends with a RESULT line in Brisk's format ({@link ResultLine}). {@link #check} makes sure it
 * can run at all before the benchmark starts, so that a missing interpreter or framework is one clear error and not
 * a half-finished table.
 *
 * @param executable the interpreter, e.g. {@code python3}, looked up on the PATH by the operating system
 * @param script the twin script, e.g. {@code tools/peers/torch_workloads.py}
 */
record PeerScript(String executable, Path script) {
    /** The PyTorch twins, relative to the repository root (the directory of the {@code ./brisk} launcher). */
    static final String TORCH_SCRIPT = "tools/peers/torch_workloads.py";

    /** {@code --workload {w1,w2,...}} in an argparse help text: the workloads the script knows. */
    private static final Pattern WORKLOAD_CHOICES = Pattern.compile("--workload \\{([^}]*)}");

    /**
     * The PyTorch twins run by {@code executable}: the script at {@code script}, or, when that is null, the one of
     * this installation ({@link #locate}).
     */
    static PeerScript torch(String executable, Path script) throws IOException {
        Path found = script != null ? script : locate(TORCH_SCRIPT);
        if (!Files.isRegularFile(found)) {
            throw new IOException("peer script " + found + " not found");
        }
        return new PeerScript(executable, found);
    }

    /**
     * The file {@code relative} (e.g. {@code tools/peers/torch_workloads.py}) in the repository this code runs from:
     * looked for in the directories above the jar or class directory (the launcher runs
     * {@code brisk-cli/target/brisk-cli-all.jar} of the repository it lives in), then above the working directory.
     */
    static Path locate(String relative) throws IOException {
        List<Path> starts = new ArrayList<>();
        try {
            Path code = Path.of(PeerScript.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            starts.add(code.toAbsolutePath());
        } catch (URISyntaxException | RuntimeException e) {
            // no code location (an unusual class loader): the working directory remains
        }
        starts.add(Path.of("").toAbsolutePath());
        for (Path start : starts) {
            for (Path dir = start; dir != null; dir = dir.getParent()) {
                Path candidate = dir.resolve(relative);
                if (Files.isRegularFile(candidate)) {
                    return candidate;
                }
            }
        }
        throw new IOException("cannot find " + relative + " in the directories above " + starts.get(0)
                + (starts.size() > 1 ? " or " + starts.get(1) : "") + "; give its path with --peer-script");
    }

    /** The command line running the script with {@code args}. */
    List<String> command(List<String> args) {
        List<String> command = new ArrayList<>(List.of(executable, script.toString()));
        command.addAll(args);
        return command;
    }

    /**
     * Runs the script with {@code --help}, which imports its framework first, and fails with an
     * {@link IOException} naming the interpreter, the script and what went wrong (the interpreter does not start,
     * the framework does not import: the output's tail) if it does not exit normally. Where the help lists the
     * script's workloads ({@code --workload {w1,w2,...}}), each of {@code workloads} must be among them.
     */
    void check(List<Workload> workloads) throws IOException, InterruptedException {
        ChildProcess child;
        try {
            child = ChildProcess.run(command(List.of("--help")));
        } catch (IOException e) {
            throw new IOException("cannot run the peer's interpreter '" + executable + "' (--python): "
                    + e.getMessage(), e);
        }
        if (child.exitCode() != 0) {
            throw new IOException("the peer does not run: '" + executable + " " + script + " --help' exited with "
                    + child.exitCode() + " (is its framework installed for " + executable + "?):\n" + child.tail());
        }
        Matcher m = WORKLOAD_CHOICES.matcher(String.join("\n", child.lines()));
        if (m.find()) {
            List<String> known = Arrays.stream(m.group(1).split(",")).map(String::trim).toList();
            for (Workload w : workloads) {
                if (!known.contains(w.id())) {
                    throw new IOException("the peer script " + script + " has no twin of workload " + w.id()
                            + " (it has " + String.join(", ", known) + ")");
                }
            }
        }
    }

    @Override
    public String toString() {
        return executable + " " + script;
    }
}

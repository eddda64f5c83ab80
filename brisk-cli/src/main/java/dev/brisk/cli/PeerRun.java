package dev.brisk.cli;

import dev.brisk.cli.Workloads.Workload;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One run of a peer's twin of a workload ({@link PeerScript}) in a child process, with the same epochs, seed, data
 * and sample limit as Brisk's runs, and its RESULT line parsed.
 *
 * @param workload what is trained
 * @param threads the thread budget given to the twin
 */
record PeerRun(Workload workload, int threads) {
    /**
     * What a finished twin reported: its RESULT line, parsed and as printed, and the machine's CPU time while it
     * ran.
     *
     * @param run the configuration
     * @param result the parsed RESULT line
     * @param resultLine the RESULT line as the twin printed it
     * @param host the machine's CPU time from the child's start to its exit
     */
    record Outcome(PeerRun run, ResultLine result, String resultLine, HostCpu host) {
        /** The peer's name as its RESULT line gives it, e.g. "pytorch-1.13.1+cpu". */
        String framework() {
            return result.framework();
        }
    }

    /**
     * Runs the twin and parses its RESULT line; fails with the output's tail if it fails, and when the line reports
     * another workload, thread budget, number of epochs or kind of test figure than asked for.
     */
    Outcome execute(PeerScript peer, int epochs, long seed, Path data, Integer limit)
            throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("--workload", workload.id(), "--threads",
                Integer.toString(threads), "--epochs", Integer.toString(epochs), "--seed", Long.toString(seed),
                workload.text() ? "--text" : "--data", data.toString()));
        if (limit != null) {
            args.addAll(List.of("--limit", limit.toString()));
        }
        ChildProcess child = ChildProcess.run(peer.command(args));
        String line = child.find("RESULT ");
        if (child.exitCode() != 0 || line == null) {
            throw new IOException("peer run " + this + " (" + peer + ") failed (exit " + child.exitCode() + "):\n"
                    + child.tail());
        }
        return accept(ResultLine.parse(line), line, child.host(), epochs);
    }

    /**
     * {@code result} as this run's outcome, if it reports this workload, thread budget, {@code epochs} and the
     * workload's kind of test figure.
     */
    Outcome accept(ResultLine result, String line, HostCpu host, int epochs) throws IOException {
        if (!result.workload().equals(workload.id()) || result.threads() != threads || result.epochs() != epochs
                || result.testMetric() != workload.testMetric()) {
            throw new IOException("peer run " + this + " with " + epochs + " epochs reported another run: " + line);
        }
        return new Outcome(this, result, line, host);
    }

    @Override
    public String toString() {
        return workload.id() + " peer threads=" + threads;
    }
}

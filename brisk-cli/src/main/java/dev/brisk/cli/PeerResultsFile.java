package dev.brisk.cli;

import dev.brisk.cli.Workloads.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The twins' figures read from a file instead of measured in the bench's rounds: the output of earlier runs of a
 * {@code tools/peers} script, of which only the RESULT lines of a framework other than Brisk are read. The k-th line
 * of each workload and thread budget goes into the k-th round, as many rounds as every configuration has lines.
 */
final class PeerResultsFile {
    private PeerResultsFile() {
    }

    /**
     * The twins' outcomes of every workload x thread budget (in that order within each round) from {@code file};
     * fails naming the file when it cannot be read, a RESULT line does not parse (with its line number), or a
     * configuration with {@code epochs} epochs has no line.
     */
    static List<List<PeerRun.Outcome>> read(Path file, List<Workload> workloads, List<Integer> budgets, int epochs)
            throws IOException {
        List<String> lines = Files.readAllLines(file);
        List<PeerRun> runs = new ArrayList<>();
        for (Workload w : workloads) {
            for (int t : budgets) {
                runs.add(new PeerRun(w, t));
            }
        }
        List<List<PeerRun.Outcome>> found = new ArrayList<>();
        for (PeerRun ignored : runs) {
            found.add(new ArrayList<>());
        }
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n).strip();
            if (!line.startsWith("RESULT ") || line.startsWith("RESULT framework=brisk ")) {
                continue;
            }
            ResultLine result;
            try {
                result = ResultLine.parse(line);
            } catch (IllegalArgumentException e) {
                throw new IOException(file + " line " + (n + 1) + ": " + e.getMessage(), e);
            }
            for (int i = 0; i < runs.size(); i++) {
                PeerRun run = runs.get(i);
                if (result.workload().equals(run.workload().id()) && result.threads() == run.threads()
                        && result.epochs() == epochs) {
                    found.get(i).add(run.accept(result, line, HostCpu.UNKNOWN, epochs));
                }
            }
        }
        int rounds = Integer.MAX_VALUE;
        for (int i = 0; i < runs.size(); i++) {
            if (found.get(i).isEmpty()) {
                throw new IOException(file + " has no RESULT line of a twin of " + runs.get(i).workload().id()
                        + " at threads=" + runs.get(i).threads() + " with epochs=" + epochs);
            }
            rounds = Math.min(rounds, found.get(i).size());
        }
        List<List<PeerRun.Outcome>> result = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            List<PeerRun.Outcome> round = new ArrayList<>();
            for (List<PeerRun.Outcome> outcomes : found) {
                round.add(outcomes.get(r));
            }
            result.add(round);
        }
        return result;
    }
}

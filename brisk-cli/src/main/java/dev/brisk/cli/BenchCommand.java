package dev.brisk.cli;

import dev.brisk.backend.Backends;
import dev.brisk.cli.Workloads.Workload;
import dev.brisk.data.FashionMnist;
import dev.brisk.data.Fortunes;
import dev.brisk.parallel.ThreadBudget;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.commons.cli.Options;

/**
 * {@code brisk bench}: trains every requested workload x mode x thread count in a fresh JVM each, one after the
 * other, each run then measuring the gemm peak in its own JVM, and prints a table, the scaling and eager/compiled
 * ratios, and every run's RESULT line. With {@code --peer torch} each round also runs the PyTorch twin of every
 * workload x thread count right after Brisk's runs of it, and a side-by-side table follows ({@link PeerTable}).
 */
public final class BenchCommand extends Subcommand {
    private static final List<String> DESCRIPTION = List.of(
            "Benchmarks the reference workloads (default w1,w2; --workloads z1,z2,z3,z4 for the model zoo): eager"
                    + " and compiled, at 1 thread and at all threads, each run in a fresh JVM, one at a time."
                    + " Throughput is the last epoch's (the first is a warm-up).",
            "Prints a table with achieved GFLOP/s and the percentage of the gemm peak (measured in each run's JVM"
                    + " right after its epochs, at its threads, so that both figures come from the same minutes of a"
                    + " host whose speed drifts), then one RESULT line per run.",
            "The steal column is the share of the machine's CPU time the hypervisor took for other guests during"
                    + " the run, from the child JVM's start to its exit (Linux /proc/stat; '-' where unknown).",
            "A round runs, for each workload and thread count, the Brisk modes and then the twin (--peer), so that"
                    + " the figures compared are close in time. The side-by-side table gives per workload and thread"
                    + " count the samples/s of Brisk compiled, Brisk eager and the twin (medians), compiled over the"
                    + " twin (the median of each round's ratio), each one's test accuracy (test loss for z3) and peak"
                    + " RSS, and Brisk's percentage of the gemm peak.");
    private static final Options OPTIONS = CliOptions.of(
            CliOptions.valued("workloads", "ID[,ID...]", "Workloads: " + Workload.validIds()
                    + " (default: w1,w2; the model zoo is z1,z2,z3,z4)."),
            CliOptions.valued("modes", "compiled,eager", "Modes (default: compiled,eager)."),
            CliOptions.valued("threads", "N[,N...]", "Thread budgets (default: 1 and the whole budget)."),
            CliOptions.valued("epochs", "N", "Epochs per run; the last is measured (default: 2)."),
            CliOptions.valued("seed", "S", "Seed of every run (default: 1)."),
            CliOptions.valued("data", "DIR",
                    "Directory of the Fashion-MNIST IDX files (default: " + FashionMnist.DEFAULT_DIR + ")."),
            CliOptions.valued("text", "DIR",
                    "Directory of the fortune files of w4 and w4-gru (default: " + Fortunes.DEFAULT_DIR + ")."),
            CliOptions.valued("limit", "N",
                    "Train on the first N training samples only (quick checks, not reference figures)."),
            CliOptions.flag("skip-gemm",
                    "Do not measure the gemm peak (no percentage column; about 2 s less per run)."),
            CliOptions.valued("repeat", "N", "Rounds: every configuration runs once per round, round after round,"
                    + " so that runs compared in a ratio are close in time; the table shows medians, the ratios each"
                    + " round's and their median (default: 1)."),
            CliOptions.valued("peer", "torch", "Also run the PyTorch twin of every workload x thread count"
                    + " (" + PeerScript.TORCH_SCRIPT + ", same epochs, seed, data and limit) in every round, right"
                    + " after Brisk's runs of it, and print the side-by-side table. Checked before any run: the"
                    + " interpreter must start and import torch."),
            CliOptions.valued("python", "EXE", "The interpreter of the twin (default: python3, from the PATH)."),
            CliOptions.valued("peer-script", "FILE",
                    "The twin script (default: " + PeerScript.TORCH_SCRIPT + " of this installation)."),
            CliOptions.valued("peer-results", "FILE", "Instead of --peer, read the twins' RESULT lines from FILE"
                    + " (the output of earlier runs of the tools/peers script, same epochs and threads; the k-th"
                    + " line of each configuration is round k) and print the side-by-side table with them."));

    List<Workload> workloads = new ArrayList<>(Workload.reference());
    List<String> modes = new ArrayList<>(List.of("compiled", "eager"));
    List<Integer> threads;
    int epochs = 2;
    long seed = 1;
    Path data = FashionMnist.DEFAULT_DIR;
    Path text = Fortunes.DEFAULT_DIR;
    Integer limit;
    boolean skipGemm;
    int repeat = 1;
    String peer;
    String python;
    Path peerScript;
    Path peerResults;

    BenchCommand() {
        super("bench", DESCRIPTION, OPTIONS);
    }

    @Override
    void read(OptionValues v) {
        workloads = v.list("workloads", Workload::parse, workloads);
        modes = v.list("modes", m -> m, modes);
        threads = v.list("threads", OptionValues::parseInt, null);
        epochs = v.integer("epochs", epochs);
        seed = v.longInteger("seed", seed);
        data = v.path("data", data);
        text = v.path("text", text);
        limit = v.integer("limit", null);
        skipGemm = v.flag("skip-gemm");
        repeat = v.integer("repeat", repeat);
        peer = v.get("peer", p -> p, null);
        python = v.get("python", p -> p, null);
        peerScript = v.path("peer-script", null);
        peerResults = v.path("peer-results", null);
    }

    @Override
    int call() throws Exception {
        validate();
        PrintStream out = System.out;
        List<Integer> budgets = budgets();
        // Everything about the peer is checked before the first run: a missing interpreter, framework or file is
        // one clear error, not a table without its last column after an hour of runs.
        PeerScript twins = null;
        List<List<PeerRun.Outcome>> peerRounds = new ArrayList<>();
        if (peer != null) {
            twins = PeerScript.torch(python == null ? "python3" : python, peerScript);
            twins.check(workloads);
        } else if (peerResults != null) {
            peerRounds = PeerResultsFile.read(peerResults, workloads, budgets, epochs);
        }
        out.printf(Locale.ROOT, "brisk bench: %s, %d logical CPUs, kernels: %s, %d epoch%s per run (last measured)%n",
                cpuModel(), Runtime.getRuntime().availableProcessors(), Backends.get().name(), epochs,
                epochs == 1 ? "" : "s");
        if (twins != null) {
            out.println("peer: " + twins);
        }

        List<List<BenchRun.Outcome>> rounds = new ArrayList<>();
        for (int round = 1; round <= repeat; round++) {
            String roundNote = repeat == 1 ? "" : " (round " + round + " of " + repeat + ")";
            List<BenchRun.Outcome> outcomes = new ArrayList<>();
            List<PeerRun.Outcome> peerOutcomes = new ArrayList<>();
            for (Workload w : workloads) {
                for (int t : budgets) {
                    for (String mode : modes) {
                        BenchRun run = new BenchRun(w, mode.equals("eager"), t);
                        out.printf(Locale.ROOT, "running %s%s ...%n", run, roundNote);
                        out.flush();
                        BenchRun.Outcome o = run.execute(epochs, seed, w.text() ? text : data, limit, !skipGemm);
                        out.println("  " + o.resultLine());
                        outcomes.add(o);
                    }
                    if (twins != null) {
                        PeerRun run = new PeerRun(w, t);
                        out.printf(Locale.ROOT, "running %s%s ...%n", run, roundNote);
                        out.flush();
                        PeerRun.Outcome o = run.execute(twins, epochs, seed, w.text() ? text : data, limit);
                        out.println("  " + o.resultLine());
                        peerOutcomes.add(o);
                    }
                }
            }
            rounds.add(outcomes);
            if (twins != null) {
                peerRounds.add(peerOutcomes);
            }
        }
        out.println();
        BenchReport.print(out, rounds, peerRounds, twins != null);
        return 0;
    }

    private void validate() {
        if (repeat < 1) {
            throw new UsageException("--repeat must be at least 1 but was " + repeat);
        }
        if (epochs < 1) {
            throw new UsageException("--epochs must be at least 1 but was " + epochs);
        }
        for (String m : modes) {
            if (!m.equals("compiled") && !m.equals("eager")) {
                throw new UsageException("Invalid mode '" + m + "': expected compiled or eager");
            }
        }
        if (threads != null) {
            for (int t : threads) {
                OptionValues.requireThreadBudget("--threads", t);
            }
        }
        if (peer != null && !peer.equals("torch")) {
            throw new UsageException("Invalid value for option '--peer': '" + peer + "' (the only peer is torch)");
        }
        if (peer != null && peerResults != null) {
            throw new UsageException("--peer and --peer-results exclude each other: measure the twins or read them");
        }
        if (peer == null && (python != null || peerScript != null)) {
            throw new UsageException((python != null ? "--python" : "--peer-script") + " needs --peer torch");
        }
    }

    private List<Integer> budgets() {
        if (threads != null && !threads.isEmpty()) {
            return threads;
        }
        int all = ThreadBudget.resolve().threads();
        return all == 1 ? List.of(1) : List.of(1, all);
    }

    /** The CPU's model name from /proc/cpuinfo, or the OS architecture where that is unavailable. */
    static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (Exception e) {
            // not Linux: fall through
        }
        return System.getProperty("os.arch");
    }
}

package dev.brisk.cli;

import dev.brisk.backend.Backends;
import dev.brisk.cli.Workloads.Workload;
import dev.brisk.data.FashionMnist;
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
 * ratios, and every run's RESULT line.
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
                    + " the run, from the child JVM's start to its exit (Linux /proc/stat; '-' where unknown).");
    private static final Options OPTIONS = CliOptions.of(
            CliOptions.valued("workloads", "ID[,ID...]", "Workloads: " + Workload.validIds()
                    + " (default: w1,w2; the model zoo is z1,z2,z3,z4)."),
            CliOptions.valued("modes", "compiled,eager", "Modes (default: compiled,eager)."),
            CliOptions.valued("threads", "N[,N...]", "Thread budgets (default: 1 and the whole budget)."),
            CliOptions.valued("epochs", "N", "Epochs per run; the last is measured (default: 2)."),
            CliOptions.valued("seed", "S", "Seed of every run (default: 1)."),
            CliOptions.valued("data", "DIR",
                    "Directory of the Fashion-MNIST IDX files (default: " + FashionMnist.DEFAULT_DIR + ")."),
            CliOptions.valued("limit", "N",
                    "Train on the first N training samples only (quick checks, not reference figures)."),
            CliOptions.flag("skip-gemm",
                    "Do not measure the gemm peak (no percentage column; about 2 s less per run)."),
            CliOptions.valued("repeat", "N", "Rounds: every configuration runs once per round, round after round,"
                    + " so that runs compared in a ratio are close in time; the table shows medians, the ratios each"
                    + " round's and their median (default: 1)."));

    List<Workload> workloads = new ArrayList<>(Workload.reference());
    List<String> modes = new ArrayList<>(List.of("compiled", "eager"));
    List<Integer> threads;
    int epochs = 2;
    long seed = 1;
    Path data = FashionMnist.DEFAULT_DIR;
    Integer limit;
    boolean skipGemm;
    int repeat = 1;

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
        limit = v.integer("limit", null);
        skipGemm = v.flag("skip-gemm");
        repeat = v.integer("repeat", repeat);
    }

    @Override
    int call() throws Exception {
        validate();
        PrintStream out = System.out;
        List<Integer> budgets = budgets();
        out.printf(Locale.ROOT, "brisk bench: %s, %d logical CPUs, kernels: %s, %d epoch%s per run (last measured)%n",
                cpuModel(), Runtime.getRuntime().availableProcessors(), Backends.get().name(), epochs,
                epochs == 1 ? "" : "s");

        List<List<BenchRun.Outcome>> rounds = new ArrayList<>();
        for (int round = 1; round <= repeat; round++) {
            List<BenchRun.Outcome> outcomes = new ArrayList<>();
            for (Workload w : workloads) {
                for (String mode : modes) {
                    for (int t : budgets) {
                        BenchRun run = new BenchRun(w, mode.equals("eager"), t);
                        out.printf(Locale.ROOT, "running %s%s ...%n", run,
                                repeat == 1 ? "" : " (round " + round + " of " + repeat + ")");
                        out.flush();
                        BenchRun.Outcome o = run.execute(epochs, seed, data, limit, !skipGemm);
                        out.println("  " + o.resultLine());
                        outcomes.add(o);
                    }
                }
            }
            rounds.add(outcomes);
        }
        out.println();
        BenchReport.print(out, rounds);
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

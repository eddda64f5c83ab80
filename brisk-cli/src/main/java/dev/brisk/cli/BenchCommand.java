package dev.brisk.cli;

import dev.brisk.backend.Backends;
import dev.brisk.cli.Workloads.Workload;
import dev.brisk.data.FashionMnist;
import dev.brisk.parallel.ThreadBudget;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code brisk bench}: measures the kernels' gemm peak in this JVM, then trains every requested workload x mode x
 * thread count in a fresh JVM each, one after the other, and prints a table, the scaling and eager/compiled ratios,
 * and every run's RESULT line.
 */
@Command(name = "bench",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Benchmarks the reference workloads: eager and compiled, at 1 thread and at all threads, each run in a"
                    + " fresh JVM, one at a time. Throughput is the last epoch's (the first is a warm-up).",
            "Prints a table with achieved GFLOP/s and the percentage of the measured gemm peak, then one RESULT"
                    + " line per run."})
public final class BenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--workloads", split = ",", paramLabel = "w1,w2",
            converter = TrainCommand.WorkloadConverter.class, description = "Workloads (default: w1,w2).")
    List<Workload> workloads = new ArrayList<>(List.of(Workload.values()));

    @Option(names = "--modes", split = ",", paramLabel = "compiled,eager",
            description = "Modes (default: compiled,eager).")
    List<String> modes = new ArrayList<>(List.of("compiled", "eager"));

    @Option(names = "--threads", split = ",", paramLabel = "N[,N...]",
            description = "Thread budgets (default: 1 and the whole budget).")
    List<Integer> threads;

    @Option(names = "--epochs", paramLabel = "N",
            description = "Epochs per run; the last is measured (default: ${DEFAULT-VALUE}).")
    int epochs = 2;

    @Option(names = "--seed", paramLabel = "S", description = "Seed of every run (default: ${DEFAULT-VALUE}).")
    long seed = 1;

    @Option(names = "--data", paramLabel = "DIR",
            description = "Directory of the Fashion-MNIST IDX files (default: ${DEFAULT-VALUE}).")
    Path data = FashionMnist.DEFAULT_DIR;

    @Option(names = "--limit", paramLabel = "N",
            description = "Train on the first N training samples only (quick checks, not reference figures).")
    Integer limit;

    @Option(names = "--skip-gemm", description = "Do not measure the gemm peak (no percentage column).")
    boolean skipGemm;

    @Option(names = "--repeat", paramLabel = "N",
            description = "Rounds: every configuration runs once per round, round after round, so that runs compared"
                    + " in a ratio are close in time; the table shows medians, the ratios each round's and their"
                    + " median (default: ${DEFAULT-VALUE}).")
    int repeat = 1;

    @Override
    public Integer call() throws Exception {
        validate();
        PrintStream out = System.out;
        List<Integer> budgets = budgets();
        out.printf(Locale.ROOT, "brisk bench: %s, %d logical CPUs, kernels: %s, %d epoch%s per run (last measured)%n",
                cpuModel(), Runtime.getRuntime().availableProcessors(), Backends.get().name(), epochs,
                epochs == 1 ? "" : "s");

        Map<Integer, Double> peak = new LinkedHashMap<>();
        if (!skipGemm) {
            out.println("gemm (GFLOP/s, best of 5 rounds after warm-up):");
            for (int t : budgets) {
                double square = GemmPeak.gflops(GemmPeak.SQUARE, t);
                double mlp = GemmPeak.gflops(GemmPeak.MLP, t);
                peak.put(t, Math.max(square, mlp));
                out.printf(Locale.ROOT, "  threads=%d  %s: %.1f   %s: %.1f%n", t, GemmPeak.SQUARE.name(), square,
                        GemmPeak.MLP.name(), mlp);
            }
        }

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
                        BenchRun.Outcome o = run.execute(epochs, seed, data, limit);
                        out.println("  " + o.resultLine());
                        outcomes.add(o);
                    }
                }
            }
            rounds.add(outcomes);
        }
        out.println();
        BenchReport.print(out, rounds, peak);
        return CommandLine.ExitCode.OK;
    }

    private void validate() {
        if (repeat < 1) {
            throw new ParameterException(spec.commandLine(), "--repeat must be at least 1 but was " + repeat);
        }
        if (epochs < 1) {
            throw new ParameterException(spec.commandLine(), "--epochs must be at least 1 but was " + epochs);
        }
        for (String m : modes) {
            if (!m.equals("compiled") && !m.equals("eager")) {
                throw new ParameterException(spec.commandLine(),
                        "Invalid mode '" + m + "': expected compiled or eager");
            }
        }
        if (threads != null) {
            for (int t : threads) {
                if (t < 1) {
                    throw new ParameterException(spec.commandLine(), "--threads must be at least 1 but was " + t);
                }
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

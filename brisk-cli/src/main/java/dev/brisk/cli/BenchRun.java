package dev.brisk.cli;

import dev.brisk.cli.Workloads.Workload;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One benchmark run: {@code brisk train} in a fresh JVM (so JIT state, heap and peak RSS belong to that run alone),
 * with the flags this JVM was started with (and an eager run with {@link #EAGER_YOUNG_GENERATION}), and its RESULT
 * and TIMING lines parsed.
 *
 * @param workload what is trained
 * @param eager eager or compiled mode
 * @param threads the thread budget of the run
 */
record BenchRun(Workload workload, boolean eager, int threads) {
    private static final Pattern FIELD = Pattern.compile("(\\w+)=(\\S+)");

    /**
     * The young-generation bound of an eager run, the flag the launcher adds for {@code --eager}: an eager step's
     * tensors are recycled from step to step (long-lived) and its per-step garbage is small, so a young generation
     * that ParallelGC grows on the JIT's warm-up garbage only adds resident pages (docs/launcher.md).
     */
    static final String EAGER_YOUNG_GENERATION = "-XX:MaxNewSize=512m";

    /**
     * What a finished run reported, and {@code host}: the machine's CPU time from the child's start to its exit,
     * measured by this JVM, whose steal says how much the hypervisor took during the run. {@code jitShare} is the
     * JIT compilers' time in the measured epoch over that epoch's wall time times the threads (NaN if unknown).
     * {@code gemmPeak} is the better gemm GFLOP/s the run measured in its own JVM right after training, at its
     * thread budget (NaN if not measured). {@code testValue} is the workload's {@link Workload#testMetric()}: the
     * test accuracy, or the test loss of a workload without an accuracy.
     */
    record Outcome(BenchRun run, double samplesPerSecond, double cpuUtilisation, double testValue, int epochs,
                   long peakRssMb, long firstStepMillis, double jitShare, double gemmPeak, String resultLine,
                   HostCpu host) {
        /** Useful training GFLOP/s, counted as docs/workloads.md does. */
        double gflops() {
            return samplesPerSecond * run.workload().trainingFlopsPerSample() / 1e9;
        }
    }

    String mode() {
        return eager ? "eager" : "compiled";
    }

    /**
     * Runs {@code brisk train} in a child JVM and parses its output; fails with the output's tail if it fails. With
     * {@code measureGemm} the child measures the gemm after training ({@code --gemm-peak}). {@code data} is the
     * Fashion-MNIST directory ({@code --data}), or for a language model the fortunes directory ({@code --text}).
     */
    Outcome execute(int epochs, long seed, Path data, Integer limit, boolean measureGemm)
            throws IOException, InterruptedException {
        ChildProcess child = ChildProcess.run(command(epochs, seed, data, limit, measureGemm));
        String result = child.find("RESULT ");
        String timing = child.find("TIMING ");
        if (child.exitCode() != 0 || result == null) {
            throw new IOException("benchmark run " + this + " failed (exit " + child.exitCode() + "):\n"
                    + child.tail());
        }
        return new Outcome(this, number(result, "samples_per_s"), number(result, "cpu_util"),
                number(result, workload.testMetric().resultField()), (int) number(result, "epochs"),
                (long) number(result, "peak_rss_mb"),
                timing == null ? -1 : (long) number(timing, "jvm_to_first_step_ms"), jitShare(timing),
                gemmPeak(timing), result, child.host());
    }

    /**
     * The child JVM's command line: this JVM's java and flags (an eager run adds {@link #EAGER_YOUNG_GENERATION},
     * as the launcher does for {@code --eager}), then {@code brisk train} with this run's options.
     */
    List<String> command(int epochs, long seed, Path data, Integer limit, boolean measureGemm) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        if (eager) {
            command.add(EAGER_YOUNG_GENERATION);
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(BriskCommand.class.getName());
        command.addAll(List.of("train", "--workload", workload.id(), "--threads", Integer.toString(threads),
                "--epochs", Integer.toString(epochs), "--seed", Long.toString(seed), "--verbose", "0",
                workload.text() ? "--text" : "--data", data.toString()));
        if (eager) {
            command.add("--eager");
        }
        if (limit != null) {
            command.addAll(List.of("--limit", limit.toString()));
        }
        if (measureGemm) {
            command.add("--gemm-peak");
        }
        return command;
    }

    /** The better of the gemm figures on the TIMING line, or NaN. */
    private static double gemmPeak(String timing) {
        if (timing == null || !timing.contains("gemm_square_gflops=")) {
            return Double.NaN;
        }
        return Math.max(number(timing, "gemm_square_gflops"), number(timing, "gemm_mlp_gflops"));
    }

    /** The JIT's share of the measured epoch's core time, from the TIMING line, or NaN. */
    private double jitShare(String timing) {
        if (timing == null || !timing.contains("jit_ms_last_epoch=")) {
            return Double.NaN;
        }
        double jit = number(timing, "jit_ms_last_epoch");
        double epoch = number(timing, "last_epoch_ms");
        return jit < 0 || epoch <= 0 ? Double.NaN : jit / (epoch * threads);
    }

    private static double number(String line, String key) {
        Matcher m = FIELD.matcher(line);
        while (m.find()) {
            if (m.group(1).equals(key)) {
                return Double.parseDouble(m.group(2));
            }
        }
        throw new IllegalArgumentException("no " + key + "= in: " + line);
    }

    @Override
    public String toString() {
        return workload.id() + " " + mode() + " threads=" + threads;
    }
}

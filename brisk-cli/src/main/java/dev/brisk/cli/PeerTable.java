package dev.brisk.cli;

import dev.brisk.cli.Workloads.Workload;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The side-by-side table of Brisk and a peer's twins: per workload and thread budget, the samples/s of Brisk
 * compiled, Brisk eager and the twin (medians over the rounds), Brisk compiled over the twin (the median of each
 * round's ratio, runs close in time, so that the machine's drift cancels; the ratio of the medians where the twins'
 * figures were not measured in the same rounds), the test figure and the peak RSS of each (of its median run), and
 * Brisk's percentage of the gemm peak. A mode that was not run shows "-".
 */
final class PeerTable {
    private static final String NONE = "-";

    private PeerTable() {
    }

    /**
     * {@code rounds}: Brisk's outcomes, one list per round; {@code peerRounds}: the twins', one list per round in
     * the same order every round; {@code sameRounds}: whether the twins ran in Brisk's rounds (one list per round of
     * Brisk's), so that the ratio is taken round by round.
     */
    static void print(PrintStream out, List<List<BenchRun.Outcome>> rounds, List<List<PeerRun.Outcome>> peerRounds,
                      boolean sameRounds) {
        String framework = peerRounds.get(0).get(0).framework();
        String peer = framework.contains("-") ? framework.substring(0, framework.indexOf('-')) : framework;
        out.printf(Locale.ROOT, "side by side with %s (samples/s: medians of %d round%s%s; compiled/%s: %s;"
                        + " test and rss: of the median run):%n", framework, rounds.size(),
                rounds.size() == 1 ? "" : "s", sameRounds ? "" : " and " + peerRounds.size() + " read", peer,
                sameRounds ? "the median of each round's ratio" : "the ratio of the medians");
        List<String> header = List.of("workload", "threads", "compiled", "eager", peer, "compiled/" + peer,
                "test_compiled", "test_eager", "test_" + peer, "rss_compiled", "rss_eager", "rss_" + peer,
                "gemm%_compiled", "gemm%_eager");
        List<List<String>> rows = new ArrayList<>();
        List<String> roundRatios = new ArrayList<>();
        for (int p = 0; p < peerRounds.get(0).size(); p++) {
            PeerRun run = peerRounds.get(0).get(p).run();
            List<BenchRun.Outcome> compiled = runsOf(rounds, run, false);
            List<BenchRun.Outcome> eager = runsOf(rounds, run, true);
            int index = p;
            List<PeerRun.Outcome> twins = peerRounds.stream().map(r -> r.get(index)).toList();
            String ratio = NONE;
            if (!compiled.isEmpty()) {
                List<Double> ratios = new ArrayList<>();
                if (sameRounds) {
                    for (int r = 0; r < rounds.size(); r++) {
                        ratios.add(compiled.get(r).samplesPerSecond() / twins.get(r).result().samplesPerSecond());
                    }
                } else {
                    ratios.add(medianSamples(compiled) / BenchReport.median(
                            twins.stream().map(t -> t.result().samplesPerSecond()).toList()));
                }
                ratio = String.format(Locale.ROOT, "%.2fx", BenchReport.median(ratios));
                if (ratios.size() > 1) {
                    roundRatios.add(String.format(Locale.ROOT, "compiled/%s %s threads=%d: %s", peer,
                            run.workload().id(), run.threads(), BenchReport.ratios(ratios)));
                }
            }
            PeerRun.Outcome twin = medianTwin(twins);
            BenchRun.Outcome c = compiled.isEmpty() ? null : BenchReport.medianRun(compiled);
            BenchRun.Outcome e = eager.isEmpty() ? null : BenchReport.medianRun(eager);
            rows.add(List.of(run.workload().id(), Integer.toString(run.threads()), samples(compiled),
                    samples(eager), String.format(Locale.ROOT, "%.0f", BenchReport.median(
                            twins.stream().map(t -> t.result().samplesPerSecond()).toList())), ratio,
                    test(run.workload(), c), test(run.workload(), e),
                    twin.result().testMetric().label(twin.result().testValue()), rss(c), rss(e),
                    Long.toString(twin.result().peakRssMb()), gemmPercent(c), gemmPercent(e)));
        }
        printRows(out, header, rows);
        roundRatios.forEach(out::println);
    }

    /** Brisk's runs of {@code run}'s workload and threads in {@code eager} mode, one per round; empty if none. */
    private static List<BenchRun.Outcome> runsOf(List<List<BenchRun.Outcome>> rounds, PeerRun run, boolean eager) {
        List<BenchRun.Outcome> first = rounds.get(0);
        for (int c = 0; c < first.size(); c++) {
            BenchRun b = first.get(c).run();
            if (b.workload() == run.workload() && b.threads() == run.threads() && b.eager() == eager) {
                int index = c;
                return rounds.stream().map(r -> r.get(index)).toList();
            }
        }
        return List.of();
    }

    private static double medianSamples(List<BenchRun.Outcome> runs) {
        return BenchReport.median(runs.stream().map(BenchRun.Outcome::samplesPerSecond).toList());
    }

    private static String samples(List<BenchRun.Outcome> runs) {
        return runs.isEmpty() ? NONE : String.format(Locale.ROOT, "%.0f", medianSamples(runs));
    }

    /** The twin with the median samples/s (the lower middle one of an even count), as {@link BenchReport}. */
    private static PeerRun.Outcome medianTwin(List<PeerRun.Outcome> twins) {
        List<PeerRun.Outcome> sorted = new ArrayList<>(twins);
        sorted.sort(Comparator.comparingDouble(t -> t.result().samplesPerSecond()));
        return sorted.get((sorted.size() - 1) / 2);
    }

    private static String test(Workload workload, BenchRun.Outcome o) {
        return o == null ? NONE : workload.testMetric().label(o.testValue());
    }

    private static String rss(BenchRun.Outcome o) {
        return o == null ? NONE : Long.toString(o.peakRssMb());
    }

    private static String gemmPercent(BenchRun.Outcome o) {
        return o == null || Double.isNaN(o.gemmPeak()) ? NONE
                : String.format(Locale.ROOT, "%.0f%%", 100 * o.gflops() / o.gemmPeak());
    }

    /** The header and rows, the first column left-aligned, the others right-aligned, each as wide as it needs. */
    private static void printRows(PrintStream out, List<String> header, List<List<String>> rows) {
        int[] width = new int[header.size()];
        for (List<String> row : concat(header, rows)) {
            for (int i = 0; i < row.size(); i++) {
                width[i] = Math.max(width[i], row.get(i).length());
            }
        }
        for (List<String> row : concat(header, rows)) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-" + width[0] + "s", row.get(0)));
            for (int i = 1; i < row.size(); i++) {
                line.append(String.format(Locale.ROOT, "  %" + width[i] + "s", row.get(i)));
            }
            out.println(line);
        }
    }

    private static List<List<String>> concat(List<String> header, List<List<String>> rows) {
        List<List<String>> all = new ArrayList<>();
        all.add(header);
        all.addAll(rows);
        return all;
    }
}

package dev.brisk.cli;

import dev.brisk.profile.OpInfo;
import dev.brisk.profile.Profile;
import dev.brisk.profile.Span;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * For {@code brisk scaling --kernels}: each kernel call site's time on 1 thread and on N, from the profiles of the
 * halves of every counted pair, so that the kernels whose time does not halve stand out. A call site is a node of
 * the step's plan, shown by its op, layer and shapes. Each half gives one median call
 * time per site; the table shows the median of those over the pairs for each budget, and the median of the pairs'
 * ratios: halves seconds apart in one JVM, so a drift of the host's speed moves both.
 */
final class KernelScaling {
    /** Per call site, in the order first seen: the median call time of each profiled half, in ns. */
    private final Map<String, Site> sites = new LinkedHashMap<>();

    private static final class Site {
        final OpInfo op;
        final List<Double> one = new ArrayList<>();
        final List<Double> many = new ArrayList<>();

        Site(OpInfo op) {
            this.op = op;
        }
    }

    /** Adds one pair's two profiled halves. */
    void addPair(Profile one, Profile many) {
        Map<String, Double> a = medians(one);
        Map<String, Double> b = medians(many);
        for (Map.Entry<String, Double> e : a.entrySet()) {
            Double other = b.get(e.getKey());
            if (other != null) {
                Site s = sites.computeIfAbsent(e.getKey(), k -> new Site(opOf(one, k)));
                s.one.add(e.getValue());
                s.many.add(other);
            }
        }
    }

    /** The table: one row per call site, slowest on 1 thread first, then the sums. */
    void print(PrintStream out, int threads) {
        if (sites.isEmpty()) {
            return;
        }
        out.printf(Locale.ROOT, "kernels (median call per half, median over %d pairs):%n", pairCount());
        out.printf(Locale.ROOT, "  %10s %10s %6s  %s%n", "1 thread", threads + " threads", "ratio", "op, layer, shapes");
        List<Site> rows = new ArrayList<>(sites.values());
        rows.sort(Comparator.comparingDouble((Site s) -> BenchReport.median(s.one)).reversed());
        double sumOne = 0;
        double sumMany = 0;
        for (Site s : rows) {
            double one = BenchReport.median(s.one);
            double many = BenchReport.median(s.many);
            sumOne += one;
            sumMany += many;
            List<Double> ratios = new ArrayList<>();
            for (int i = 0; i < s.one.size(); i++) {
                ratios.add(s.one.get(i) / s.many.get(i));
            }
            out.printf(Locale.ROOT, "  %8.1f us %8.1f us %5.2fx  %s %s %s%n", one / 1e3, many / 1e3,
                    BenchReport.median(ratios), s.op.op(), s.op.layer(), s.op.shapes());
        }
        out.printf(Locale.ROOT, "  %8.1f us %8.1f us %5.2fx  all kernels (sum of the medians)%n", sumOne / 1e3,
                sumMany / 1e3, sumOne / sumMany);
    }

    private int pairCount() {
        return sites.values().iterator().next().one.size();
    }

    /** Each call site's median call time in {@code p}, in ns. */
    private static Map<String, Double> medians(Profile p) {
        Map<String, List<Double>> times = new HashMap<>();
        for (Span s : p.spans()) {
            if (s.category() == Span.Category.KERNEL && s.op() != null) {
                times.computeIfAbsent(key(s.op()), k -> new ArrayList<>()).add((double) s.nanos());
            }
        }
        Map<String, Double> out = new HashMap<>();
        times.forEach((k, v) -> out.put(k, BenchReport.median(v)));
        return out;
    }

    private static OpInfo opOf(Profile p, String key) {
        for (Span s : p.spans()) {
            if (s.op() != null && key(s.op()).equals(key)) {
                return s.op();
            }
        }
        throw new IllegalStateException("no span of " + key);
    }

    /** A call site: its node (one plan serves both budgets) and what it does. */
    private static String key(OpInfo op) {
        return op.node() + " " + op.op() + " " + op.layer() + " " + op.shapes();
    }
}

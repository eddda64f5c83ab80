package dev.brisk.profile;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Kernel calls of a profile added up per key (one op of the step, or one op type), longest total first. */
record OpTotals(String key, OpInfo example, int calls, long nanos, long flops) {
    /** Per op of the step: one node of the step's graph (graphs are traced the same way every step). */
    static List<OpTotals> byOp(Profile p) {
        return group(p, op -> op.node() + " " + op.op() + " " + op.layer() + " " + op.shapes());
    }

    /** Per op type, e.g. MATMUL or UNARY(RELU). */
    static List<OpTotals> byType(Profile p) {
        return group(p, OpInfo::op);
    }

    /** Achieved rate over the time of these calls. */
    double gflopsPerSecond() {
        return nanos > 0 ? (double) flops / nanos : 0;
    }

    private static List<OpTotals> group(Profile p, Function<OpInfo, String> key) {
        Map<String, OpTotals> totals = new LinkedHashMap<>();
        for (Span s : p.spans()) {
            if (s.op() == null) {
                continue;
            }
            totals.merge(key.apply(s.op()), new OpTotals(key.apply(s.op()), s.op(), 1, s.nanos(), s.op().flops()),
                    (a, b) -> new OpTotals(a.key, a.example, a.calls + 1, a.nanos + b.nanos, a.flops + b.flops));
        }
        List<OpTotals> list = new ArrayList<>(totals.values());
        list.sort(Comparator.comparingLong(OpTotals::nanos).reversed());
        return list;
    }
}

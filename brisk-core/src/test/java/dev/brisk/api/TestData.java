package dev.brisk.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brisk.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Tiny synthetic data sets and small helpers shared by the API tests. */
final class TestData {
    private TestData() {
    }

    /**
     * A learnable 3-class problem: the class is the index of the largest of the first three features, the other
     * features are noise. Returns {x (n, features), y (n,)}.
     */
    static Tensor[] classification(int n, int features, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] x = new float[n * features];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            int best = 0;
            for (int j = 0; j < features; j++) {
                x[i * features + j] = (float) r.nextGaussian();
                if (j < 3 && x[i * features + j] > x[i * features + best]) {
                    best = j;
                }
            }
            y[i] = best;
        }
        return new Tensor[] {Tensor.of(x, n, features), Tensor.of(y, n)};
    }

    /** A linear regression target {@code y = x . w + 0.5} with one output column. */
    static Tensor[] regression(int n, int features, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] x = new float[n * features];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            double s = 0.5;
            for (int j = 0; j < features; j++) {
                float v = (float) r.nextGaussian();
                x[i * features + j] = v;
                s += v * (j % 2 == 0 ? 1.0 : -0.5) * (1 + j * 0.25);
            }
            y[i] = (float) s;
        }
        return new Tensor[] {Tensor.of(x, n, features), Tensor.of(y, n, 1)};
    }

    static Tensor gaussian(long seed, int... dims) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = 1;
        for (int d : dims) {
            n *= d;
        }
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) r.nextGaussian();
        }
        return Tensor.of(v, dims);
    }

    static void assertSameValues(Tensor expected, Tensor actual, double tol, String what) {
        assertEquals(expected.shape(), actual.shape(), what + ": shape");
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), actual.get(i), tol, what + ": element " + i);
        }
    }

    static double maxAbsDiff(Tensor a, Tensor b) {
        double m = 0;
        for (int i = 0; i < a.size(); i++) {
            m = Math.max(m, Math.abs(a.get(i) - b.get(i)));
        }
        return m;
    }

    static double l2Diff(Tensor a, Tensor b) {
        double s = 0;
        for (int i = 0; i < a.size(); i++) {
            double d = a.get(i) - b.get(i);
            s += d * d;
        }
        return Math.sqrt(s);
    }

    static double sumSquares(Tensor t) {
        double s = 0;
        for (int i = 0; i < t.size(); i++) {
            s += (double) t.get(i) * t.get(i);
        }
        return s;
    }

    /** One row of a summary table: layer name, type, output shape, parameter count (as printed). */
    record Row(String name, String type, String shape, String params) {
    }

    private static final Pattern ROW =
            Pattern.compile("^ (\\S+) \\((\\w+)\\)\\s+(\\(None(?:, \\d+)*\\))\\s+([\\d,]+)(?:\\s+.*)?$");

    static List<Row> summaryRows(String summary) {
        List<Row> rows = new ArrayList<>();
        for (String line : summary.split("\n")) {
            Matcher m = ROW.matcher(line);
            if (m.matches()) {
                rows.add(new Row(m.group(1), m.group(2), m.group(3), m.group(4)));
            }
        }
        return rows;
    }
}

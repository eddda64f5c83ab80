package dev.brisk.backend.jvm;

/** The error function in double precision (the JDK has none), for the reference GELU. */
final class Erf {
    private static final double TWO_OVER_SQRT_PI = 1.1283791670955126;
    private static final double ONE_OVER_SQRT_PI = 0.5641895835477563;

    private Erf() {
    }

    /** erf(x) to about 1e-14: the Maclaurin series below 2.5, the continued fraction of erfc above. */
    static double erf(double x) {
        double ax = Math.abs(x);
        double r;
        if (ax < 2.5) {
            double x2 = ax * ax;
            double term = ax;
            double sum = ax;
            for (int n = 1; n < 100; n++) {
                term *= -x2 / n;
                double t = term / (2 * n + 1);
                sum += t;
                if (Math.abs(t) < 1e-17 * sum) {
                    break;
                }
            }
            r = TWO_OVER_SQRT_PI * sum;
        } else if (ax < 10) {
            r = 1 - erfcLarge(ax);
        } else {
            r = ax == ax ? 1 : ax;
        }
        return Math.copySign(r, x);
    }

    /** erfc(x) for x >= 2.5: exp(-x^2)/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))), from the tail. */
    private static double erfcLarge(double x) {
        double f = x;
        for (int n = 120; n >= 1; n--) {
            f = x + (n / 2.0) / f;
        }
        return Math.exp(-x * x) * ONE_OVER_SQRT_PI / f;
    }
}

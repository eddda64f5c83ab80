package dev.brisk.profile;

/**
 * Which training steps to profile: {@code first} to {@code last} inclusive, counted from 1 over the whole fit
 * (Keras' {@code profile_batch=(first, last)}).
 *
 * @param first the first profiled step, at least 1
 * @param last the last profiled step, at least {@code first}
 */
public record ProfileWindow(int first, int last) {
    /**
     * Steps the default window leaves for warm-up: the first trace and plan, and JIT compilation, which still makes
     * early steps several times slower than steady state and has settled well before this many steps.
     */
    public static final int DEFAULT_WARMUP_STEPS = 50;
    /** Steps the default window profiles. */
    public static final int DEFAULT_STEPS = 5;

    /**
     * Checks that the window is not empty and starts at step 1 or later.
     *
     * @param first the first profiled step, at least 1
     * @param last the last profiled step, at least {@code first}
     */
    public ProfileWindow {
        if (first < 1 || last < first) {
            throw new IllegalArgumentException("profile steps must satisfy 1 <= first <= last, got " + first + "-"
                    + last);
        }
    }

    /**
     * The default window for a fit of {@code totalSteps}: the {@value #DEFAULT_STEPS} steps after
     * {@value #DEFAULT_WARMUP_STEPS} warm-up steps, or the last ones of a fit too short for that.
     *
     * @param totalSteps the number of steps the fit will run
     * @return the window
     */
    public static ProfileWindow afterWarmup(int totalSteps) {
        int last = Math.max(1, Math.min(DEFAULT_WARMUP_STEPS + DEFAULT_STEPS, totalSteps));
        return new ProfileWindow(Math.max(1, last - DEFAULT_STEPS + 1), last);
    }

    /**
     * Whether {@code step} is in the window.
     *
     * @param step a step counted from 1 over the fit
     * @return true if {@code first <= step <= last}
     */
    public boolean covers(int step) {
        return step >= first && step <= last;
    }

    @Override
    public String toString() {
        return first == last ? Integer.toString(first) : first + "-" + last;
    }
}

package dev.brisk.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * CPU time of the whole (virtual) machine from the aggregate {@code cpu} line of Linux's {@code /proc/stat}, in
 * jiffies: all of it, and the part the hypervisor stole for other guests. {@link #now()} is a snapshot (time since
 * boot); {@link #since} of two snapshots is the time between them, whose {@link #stealFraction()} says how much of
 * an interval's CPU the host took away. Where {@code /proc/stat} cannot be read (not Linux) it is {@link #UNKNOWN},
 * and so is every difference and sum with it.
 *
 * @param total user + nice + system + idle + iowait + irq + softirq + steal (guest time is inside user already)
 * @param steal the stolen part of {@code total}
 */
record HostCpu(long total, long steal) {
    /** No figures: {@code /proc/stat} is missing or unreadable. */
    static final HostCpu UNKNOWN = new HostCpu(-1, -1);

    private static final Path STAT = Path.of("/proc/stat");
    /** user nice system idle iowait irq softirq steal: the fields counted, in this order after "cpu". */
    private static final int COUNTED_FIELDS = 8;
    /** The oldest kernels print user nice system idle only. */
    private static final int FEWEST_FIELDS = 4;

    /** This machine's CPU time since boot, or {@link #UNKNOWN}. */
    static HostCpu now() {
        try {
            return parse(Files.readString(STAT));
        } catch (IOException | RuntimeException e) {
            return UNKNOWN;
        }
    }

    /**
     * The aggregate {@code cpu} line of a {@code /proc/stat} text ({@code "cpu  4194203 0 270973 6977319 4182 0 1265
     * 61096 0 0"}); fields an older kernel does not print (steal before 2.6.11) count as 0. {@link #UNKNOWN} if
     * there is no such line or it cannot be read.
     */
    static HostCpu parse(String statText) {
        for (String line : statText.split("\n")) {
            String[] fields = line.trim().split("\\s+");
            if (!fields[0].equals("cpu")) {
                continue;
            }
            int present = Math.min(fields.length - 1, COUNTED_FIELDS);
            if (present < FEWEST_FIELDS) {
                return UNKNOWN;
            }
            long total = 0;
            try {
                for (int i = 1; i <= present; i++) {
                    long jiffies = Long.parseLong(fields[i]);
                    if (jiffies < 0) {
                        return UNKNOWN;
                    }
                    total += jiffies;
                }
                return new HostCpu(total, present == COUNTED_FIELDS ? Long.parseLong(fields[COUNTED_FIELDS]) : 0);
            } catch (NumberFormatException e) {
                return UNKNOWN;
            }
        }
        return UNKNOWN;
    }

    boolean known() {
        return total >= 0 && steal >= 0;
    }

    /** The CPU time from snapshot {@code earlier} to this one; {@link #UNKNOWN} if either is. */
    HostCpu since(HostCpu earlier) {
        if (!known() || !earlier.known() || total < earlier.total || steal < earlier.steal) {
            return UNKNOWN;
        }
        return new HostCpu(total - earlier.total, steal - earlier.steal);
    }

    /** Both intervals' CPU time together; {@link #UNKNOWN} if either is. */
    HostCpu plus(HostCpu other) {
        return known() && other.known() ? new HostCpu(total + other.total, steal + other.steal) : UNKNOWN;
    }

    /** steal / total, or NaN where unknown or no time was counted (an interval shorter than a jiffy). */
    double stealFraction() {
        return known() && total > 0 ? (double) steal / total : Double.NaN;
    }

    /** The steal fraction as a percentage with one decimal ({@code "12.1%"}), or {@code "-"} where it is NaN. */
    String stealPercent() {
        double f = stealFraction();
        return Double.isNaN(f) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * f);
    }
}

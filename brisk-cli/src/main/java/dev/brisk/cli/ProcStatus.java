package dev.brisk.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads the peak resident set size ({@code VmHWM}) from Linux's {@code /proc/self/status}. */
public final class ProcStatus {
    private static final Path SELF = Path.of("/proc/self/status");

    private ProcStatus() {
    }

    /** This process's peak resident memory in MiB, or 0 where {@code /proc} is unavailable (not Linux). */
    public static long peakRssMb() {
        try {
            return peakRssMb(Files.readString(SELF));
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /**
     * The {@code VmHWM} line of a {@code /proc/PID/status} text ({@code "VmHWM:\t  524288 kB"}) in MiB, rounded;
     * 0 if there is no such line or it cannot be read.
     */
    public static long peakRssMb(String statusText) {
        for (String line : statusText.split("\n")) {
            if (!line.startsWith("VmHWM:")) {
                continue;
            }
            String[] parts = line.substring("VmHWM:".length()).trim().split("\\s+");
            try {
                long value = Long.parseLong(parts[0]);
                String unit = parts.length > 1 ? parts[1] : "kB";
                long kib = switch (unit) {
                    case "kB", "KB", "kb" -> value;
                    case "mB", "MB" -> value * 1024;
                    case "gB", "GB" -> value * 1024 * 1024;
                    default -> -1;
                };
                return kib < 0 ? 0 : Math.round(kib / 1024.0);
            } catch (NumberFormatException e) {
                return 0;
            }
        }
        return 0;
    }
}

package dev.brisk.io.tensorboard;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/** This machine's name for event-file names, found without a DNS look-up where possible. */
final class HostName {
    private static volatile String cached;

    private HostName() {
    }

    static String get() {
        String h = cached;
        if (h == null) {
            h = sanitize(find());
            cached = h;
        }
        return h;
    }

    private static String find() {
        try {
            Path kernel = Path.of("/proc/sys/kernel/hostname");
            if (Files.isReadable(kernel)) {
                String s = Files.readString(kernel).strip();
                if (!s.isEmpty()) {
                    return s;
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through to the other sources
        }
        for (String var : new String[] {"HOSTNAME", "COMPUTERNAME"}) {
            String s = System.getenv(var);
            if (s != null && !s.isBlank()) {
                return s.strip();
            }
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException | RuntimeException e) {
            return "localhost";
        }
    }

    /** Keeps letters, digits, '.', '-' and '_'; anything else (a path separator, a space) becomes '_'. */
    static String sanitize(String host) {
        StringBuilder sb = new StringBuilder(host.length());
        for (char c : host.toCharArray()) {
            boolean ok = c < 128 && (Character.isLetterOrDigit(c) || c == '.' || c == '-' || c == '_');
            sb.append(ok ? c : '_');
        }
        return sb.isEmpty() ? "localhost" : sb.toString();
    }
}

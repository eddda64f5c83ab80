package dev.brisk.profile;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Writes a {@link Profile} in Chrome's Trace Event Format: one complete ("X") event per span, times in
 * microseconds from the first profiled step, on the training thread so that kernels nest inside their step's
 * "train step" span, which nests inside the step. Kernel calls that ran side by side on a pool thread go on that
 * thread's track. Opens in Perfetto and chrome://tracing.
 */
final class ChromeTrace {
    private ChromeTrace() {
    }

    static void write(Profile p, OutputStream stream) throws IOException {
        Writer out = new OutputStreamWriter(stream, StandardCharsets.UTF_8);
        long origin = p.spans().isEmpty() ? 0 : p.spans().get(0).startNanos();
        String ids = "\"pid\":" + p.pid() + ",\"tid\":" + p.tid();
        out.write("{\"traceEvents\":[\n");
        out.write("{\"name\":\"process_name\",\"ph\":\"M\"," + ids + ",\"args\":{\"name\":\"brisk\"}},\n");
        out.write("{\"name\":\"thread_name\",\"ph\":\"M\"," + ids + ",\"args\":{\"name\":\"training loop\"}}");
        Set<Long> others = new TreeSet<>();
        for (Span s : p.spans()) {
            if (s.thread() != 0 && s.thread() != p.tid() && others.add(s.thread())) {
                out.write(",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":" + p.pid() + ",\"tid\":" + s.thread()
                        + ",\"args\":{\"name\":\"compute pool\"}}");
            }
        }
        for (Span s : p.spans()) {
            String where = s.thread() == 0 ? ids : "\"pid\":" + p.pid() + ",\"tid\":" + s.thread();
            out.write(",\n{\"name\":" + quote(s.name()) + ",\"cat\":\"" + s.category().label() + "\",\"ph\":\"X\","
                    + "\"ts\":" + micros(s.startNanos() - origin) + ",\"dur\":" + micros(s.nanos()) + "," + where
                    + ",\"args\":" + args(s) + "}");
        }
        out.write("\n],\"displayTimeUnit\":\"ms\",\"otherData\":{\"mode\":" + quote(p.mode()) + ",\"threads\":"
                + p.threads() + ",\"cpu_util\":" + String.format(Locale.ROOT, "%.4f", p.cpuUtilisation())
                + ",\"input_wait\":" + String.format(Locale.ROOT, "%.4f", p.inputWaitShare()) + "}}\n");
        out.flush();
    }

    private static String args(Span s) {
        OpInfo op = s.op();
        if (op == null) {
            return "{\"step\":" + s.step() + "}";
        }
        return "{\"step\":" + s.step() + ",\"layer\":" + quote(op.layer()) + ",\"node\":" + op.node()
                + ",\"shapes\":" + quote(op.shapes()) + ",\"flops\":" + op.flops() + "}";
    }

    /** Nanoseconds as exact decimal microseconds (so rounding never moves a child outside its parent). */
    static String micros(long nanos) {
        String sign = nanos < 0 ? "-" : "";
        long a = Math.abs(nanos);
        return sign + a / 1000 + "." + String.format(Locale.ROOT, "%03d", a % 1000);
    }

    /** A JSON string literal. */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}

package dev.brisk.callbacks;

import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A checkpoint path with Python-style fields, as Keras fills them with {@code filepath.format(epoch=..., **logs)}:
 * {@code {epoch}}, {@code {epoch:02d}}, {@code {val_loss:.2f}}, {@code {accuracy:.4e}}.
 *
 * <p>A field's spec is {@code [0][width][.precision][d|f|e|g]}: a leading {@code 0} pads with zeros, otherwise
 * with spaces, as Python does ({@code {epoch:3d}} gives {@code "  7"}). {@code d} takes only whole numbers (the
 * epoch); the others take any value. A field without a spec prints a whole number as an integer and any other
 * value as Java's shortest decimal form.
 */
final class FileNameTemplate {
    private static final Pattern FIELD = Pattern.compile("\\{([A-Za-z_][A-Za-z0-9_]*)(?::([^}]*))?}");
    private static final Pattern SPEC = Pattern.compile("(0)?(\\d+)?(?:\\.(\\d+))?([dfeg])?");

    private final String template;

    FileNameTemplate(String template) {
        this.template = template;
    }

    /**
     * The path for {@code values} (the epoch, 1-based, and the epoch's logs).
     *
     * @throws IllegalArgumentException naming the field when it has no value or its spec does not fit the value
     */
    String format(Map<String, ? extends Number> values) {
        Matcher m = FIELD.matcher(template);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            Number value = values.get(name);
            if (value == null) {
                throw new IllegalArgumentException("checkpoint path '" + template + "' names {" + name
                        + "}, which this epoch's logs do not have; available: " + new TreeSet<>(values.keySet()));
            }
            m.appendReplacement(sb, Matcher.quoteReplacement(field(name, m.group(2), value)));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    private String field(String name, String spec, Number value) {
        boolean whole = value instanceof Integer || value instanceof Long;
        if (spec == null || spec.isEmpty()) {
            return whole ? Long.toString(value.longValue()) : Double.toString(value.doubleValue());
        }
        Matcher s = SPEC.matcher(spec);
        if (!s.matches()) {
            throw new IllegalArgumentException("checkpoint path '" + template + "': unsupported format spec '" + spec
                    + "' for {" + name + "}; use [0][width][.precision][d|f|e|g], e.g. 02d or .4f");
        }
        String flags = s.group(1) != null ? "0" : "";
        String width = s.group(2) != null ? s.group(2) : "";
        String type = s.group(4) != null ? s.group(4) : whole ? "d" : "g";
        if (type.equals("d")) {
            if (!whole) {
                throw new IllegalArgumentException("checkpoint path '" + template + "': {" + name + ":" + spec
                        + "} formats a whole number, but " + name + " is " + value);
            }
            if (s.group(3) != null) {
                throw new IllegalArgumentException("checkpoint path '" + template + "': {" + name + ":" + spec
                        + "}: a precision is not allowed with d");
            }
                return String.format(Locale.ROOT, "%" + (width.isEmpty() ? "" : flags + width) + "d", value.longValue());
        }
        // Python's f/e/g default to 6 digits; Java's %g never drops trailing zeros, so g is written as Python's.
        int precision = s.group(3) != null ? Integer.parseInt(s.group(3)) : 6;
        double v = value.doubleValue();
        String text = type.equals("g") ? pythonG(v, precision)
                : String.format(Locale.ROOT, "%." + precision + type, v);
        return pad(text, flags.equals("0"), width.isEmpty() ? 0 : Integer.parseInt(width));
    }

    /** Python's {@code g}: %e or %f by exponent, trailing zeros (and a bare point) removed. */
    private static String pythonG(double v, int precision) {
        if (!Double.isFinite(v)) {
            return Double.isNaN(v) ? "nan" : v > 0 ? "inf" : "-inf";
        }
        int p = Math.max(1, precision);
        if (v == 0) {
            return Math.copySign(1.0, v) < 0 ? "-0" : "0";
        }
        String e = String.format(Locale.ROOT, "%." + (p - 1) + "e", v);
        int exponent = Integer.parseInt(e.substring(e.indexOf('e') + 1));
        String text = exponent >= -4 && exponent < p
                ? String.format(Locale.ROOT, "%." + (p - 1 - exponent) + "f", v)
                : e;
        String mantissa = text.contains("e") ? text.substring(0, text.indexOf('e')) : text;
        String suffix = text.contains("e") ? text.substring(text.indexOf('e')) : "";
        if (mantissa.contains(".")) {
            mantissa = mantissa.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        if (!suffix.isEmpty()) {
            // Python writes at least two exponent digits, with a sign: 1e-05, 2.5e+10.
            int exp = Integer.parseInt(suffix.substring(1));
            suffix = String.format(Locale.ROOT, "e%s%02d", exp < 0 ? "-" : "+", Math.abs(exp));
        }
        return mantissa + suffix;
    }

    private static String pad(String text, boolean zeros, int width) {
        if (text.length() >= width) {
            return text;
        }
        String fill = (zeros ? "0" : " ").repeat(width - text.length());
        if (zeros && text.startsWith("-")) {
            return "-" + fill + text.substring(1);
        }
        return fill + text;
    }
}

package dev.brisk.data;

import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses the header of an NPY file: a Python dict literal with exactly the keys {@code 'descr'},
 * {@code 'fortran_order'} and {@code 'shape'}, padded with blanks and ended by a newline. The grammar is that of a
 * Python literal, so that a header numpy reads is read the same way and anything else is refused: every key once
 * (numpy's {@code literal_eval} would silently keep the last of two, a regular expression the first), nothing
 * after the closing brace but whitespace, and a shape that is a tuple of non-negative integers. Errors are
 * {@link DataFormatException}s naming the file and the byte offset in it.
 *
 * @param descr the dtype string, or null when the dtype is not a string (a structured dtype)
 * @param fortranOrder whether the array is stored column-major
 * @param shape the dimensions
 */
record NpyHeader(String descr, boolean fortranOrder, long[] shape) {
    /** The keys an NPY header must have, and no others. */
    private static final List<String> KEYS = List.of("descr", "fortran_order", "shape");
    /** Quoted at most this many characters of the header in an error. */
    private static final int QUOTED = 80;

    /** Python's None: only a structured dtype holds one, and those are refused. */
    private static final Object NONE = new Object();

    /** A Python tuple, told apart from a list because the shape must be a tuple. */
    private record Tuple(List<Object> items) {
    }

    /**
     * Parses {@code text}, the header that starts at byte {@code offset} of {@code file}, decoded from
     * {@code charset} (which turns character positions back into byte offsets).
     *
     * @throws DataFormatException for anything but a dict literal with exactly the three keys and valid values
     */
    static NpyHeader parse(String text, Charset charset, Path file, long offset) throws DataFormatException {
        return new Parser(text, charset, file, offset).header();
    }

    /** A recursive-descent parser of the Python literals an NPY header can hold. */
    private static final class Parser {
        private final String text;
        private final Charset charset;
        private final Path file;
        private final long offset;
        private int pos;

        Parser(String text, Charset charset, Path file, long offset) {
            this.text = text;
            this.charset = charset;
            this.file = file;
            this.offset = offset;
        }

        NpyHeader header() throws DataFormatException {
            skipBlanks();
            int dictAt = pos;
            if (!(value() instanceof Map<?, ?> dict)) {
                throw error(dictAt, "expected a dict literal {'descr': ..., 'fortran_order': ..., 'shape': ...}");
            }
            skipBlanks();
            if (pos < text.length()) {
                throw error(pos, "unexpected text after the closing brace of the header dict");
            }
            for (String key : KEYS) {
                if (!dict.containsKey(key)) {
                    throw error(dictAt, "the header dict has no '" + key + "' key");
                }
            }
            Object descr = dict.get("descr");
            if (!(dict.get("fortran_order") instanceof Boolean fortran)) {
                throw error(dictAt, "'fortran_order' must be True or False");
            }
            return new NpyHeader(descr instanceof String s ? s : null, fortran, shape(dict.get("shape"), dictAt));
        }

        private long[] shape(Object value, int at) throws DataFormatException {
            if (!(value instanceof Tuple tuple)) {
                throw error(at, "'shape' must be a tuple of non-negative integers, such as (2, 3) or (5,)");
            }
            long[] dims = new long[tuple.items().size()];
            for (int i = 0; i < dims.length; i++) {
                if (!(tuple.items().get(i) instanceof Long d) || d < 0) {
                    throw error(at, "bad dimension " + i + " in 'shape': " + tuple.items().get(i)
                            + " is not a non-negative integer");
                }
                dims[i] = d;
            }
            return dims;
        }

        /** One literal: a string, an integer, True, False, None, a tuple, a list or a dict. */
        private Object value() throws DataFormatException {
            skipBlanks();
            if (pos >= text.length()) {
                throw error(pos, "the header ends where a value was expected");
            }
            char c = text.charAt(pos);
            if (c == '\'' || c == '"') {
                return string();
            }
            if (c == '{') {
                return dict();
            }
            if (c == '(' || c == '[') {
                return sequence(c);
            }
            if (c == '-' || Character.isDigit(c)) {
                return integer();
            }
            int start = pos;
            while (pos < text.length() && Character.isLetter(text.charAt(pos))) {
                pos++;
            }
            return switch (text.substring(start, pos)) {
                case "True" -> Boolean.TRUE;
                case "False" -> Boolean.FALSE;
                case "None" -> NONE;
                default -> throw error(start, "unexpected " + quote(start) + " where a value was expected");
            };
        }

        private Map<String, Object> dict() throws DataFormatException {
            Map<String, Object> dict = new LinkedHashMap<>();
            pos++; // '{'
            while (true) {
                skipBlanks();
                if (peek() == '}') {
                    pos++;
                    return dict;
                }
                int keyAt = pos;
                if (peek() != '\'' && peek() != '"') {
                    throw error(keyAt, "expected a quoted key or '}' but found " + quote(keyAt));
                }
                String key = string();
                if (!KEYS.contains(key)) {
                    throw error(keyAt, "unexpected key '" + key + "' (an NPY header has exactly 'descr', "
                            + "'fortran_order' and 'shape')");
                }
                if (dict.containsKey(key)) {
                    throw error(keyAt, "duplicate key '" + key + "'");
                }
                skipBlanks();
                expect(':');
                dict.put(key, value());
                skipBlanks();
                if (peek() == ',') {
                    pos++;
                } else if (peek() != '}') {
                    throw error(pos, "expected ',' or '}' but found " + quote(pos));
                }
            }
        }

        /** A tuple {@code (a, b)}, {@code (a,)} or {@code ()}, a parenthesised value {@code (a)}, or a list. */
        private Object sequence(char open) throws DataFormatException {
            char close = open == '(' ? ')' : ']';
            pos++;
            List<Object> items = new ArrayList<>();
            boolean comma = false;
            while (true) {
                skipBlanks();
                if (peek() == close) {
                    pos++;
                    break;
                }
                items.add(value());
                skipBlanks();
                if (peek() == ',') {
                    pos++;
                    comma = true;
                } else if (peek() != close) {
                    throw error(pos, "expected ',' or '" + close + "' but found " + quote(pos));
                }
            }
            if (open == '[') {
                return items; // a list: only a structured dtype is one
            }
            return items.size() == 1 && !comma ? items.get(0) : new Tuple(items);
        }

        private Long integer() throws DataFormatException {
            int start = pos;
            if (peek() == '-') {
                pos++;
            }
            while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
                pos++;
            }
            String digits = text.substring(start, pos);
            if (peek() == 'L' || peek() == 'l') {
                pos++; // Python 2 long literal, as old numpy wrote them
            }
            String unsigned = digits.startsWith("-") ? digits.substring(1) : digits;
            if (unsigned.isEmpty() || unsigned.length() > 1 && unsigned.charAt(0) == '0') {
                throw error(start, "malformed integer " + quote(start));
            }
            try {
                return Long.parseLong(digits);
            } catch (NumberFormatException e) {
                throw error(start, "integer " + quote(start) + " is out of range");
            }
        }

        private String string() throws DataFormatException {
            int start = pos;
            char quoteChar = text.charAt(pos++);
            StringBuilder sb = new StringBuilder();
            while (true) {
                if (pos >= text.length() || text.charAt(pos) == '\n') {
                    throw error(start, "the string opened here is not closed");
                }
                char c = text.charAt(pos++);
                if (c == quoteChar) {
                    return sb.toString();
                }
                if (c == '\\') {
                    if (pos >= text.length() || "\\'\"".indexOf(text.charAt(pos)) < 0) {
                        throw error(pos - 1, "unsupported escape in a string");
                    }
                    c = text.charAt(pos++);
                }
                sb.append(c);
            }
        }

        private void expect(char c) throws DataFormatException {
            if (peek() != c) {
                throw error(pos, "expected '" + c + "' but found " + quote(pos));
            }
            pos++;
        }

        private char peek() {
            return pos < text.length() ? text.charAt(pos) : '\0';
        }

        /** Python's whitespace between tokens (numpy pads with spaces and ends the header with a newline). */
        private void skipBlanks() {
            while (pos < text.length() && " \t\n\r\f".indexOf(text.charAt(pos)) >= 0) {
                pos++;
            }
        }

        private String quote(int at) {
            if (at >= text.length()) {
                return "the end of the header";
            }
            String rest = text.substring(at);
            return "'" + (rest.length() > 20 ? rest.substring(0, 20) + "..." : rest) + "'";
        }

        /** An error at character {@code at} of the header, reported as the byte offset in the file. */
        private DataFormatException error(int at, String what) {
            long byteOffset = offset + text.substring(0, at).getBytes(charset).length;
            String shown = text.strip();
            shown = shown.length() > QUOTED ? shown.substring(0, QUOTED) + "..." : shown;
            return new DataFormatException(file, byteOffset, "malformed NPY header (at offset " + offset + "): "
                    + what + " at offset " + byteOffset + " in " + shown);
        }
    }
}

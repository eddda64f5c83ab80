package dev.brisk.data;

import java.util.ArrayList;
import java.util.List;

/** Splits one CSV line into cells: RFC 4180 quoting ({@code "a, b"}, {@code ""} for a quote) within the line. */
final class CsvLine {
    private CsvLine() {
    }

    /** Characters of a cell quoted in a message at most, so that a huge cell does not make a huge message. */
    private static final int QUOTED = 40;

    /** {@code text} for a message: its first 40 characters, and "..." if there are more. */
    static String shorten(String text) {
        return text.length() <= QUOTED ? text : text.substring(0, QUOTED) + "...";
    }

    /**
     * The cells of {@code line}.
     *
     * @throws IllegalArgumentException for a quote that is not closed, text after a closing quote, or more than
     *     {@code maxCells} cells
     */
    static List<String> split(String line, char delimiter, int maxCells) {
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        int i = 0;
        int n = line.length();
        while (true) {
            cell.setLength(0);
            if (i < n && line.charAt(i) == '"') {
                int open = i++;
                while (true) {
                    if (i >= n) {
                        throw new IllegalArgumentException("the quote opened at character " + (open + 1)
                                + " is not closed (fields may not span lines)");
                    }
                    char c = line.charAt(i++);
                    if (c == '"') {
                        if (i < n && line.charAt(i) == '"') {
                            cell.append('"');
                            i++;
                        } else {
                            break;
                        }
                    } else {
                        cell.append(c);
                    }
                }
                if (i < n && line.charAt(i) != delimiter) {
                    throw new IllegalArgumentException("unexpected text after the closing quote at character " + i);
                }
            } else {
                while (i < n && line.charAt(i) != delimiter) {
                    cell.append(line.charAt(i++));
                }
            }
            if (cells.size() == maxCells) {
                throw new IllegalArgumentException("more than " + maxCells + " cells, over the limit "
                        + "(brisk.csvMaxCells, or maxCells on CsvDataset.builder)");
            }
            cells.add(cell.toString());
            if (i >= n) {
                return cells;
            }
            i++; // the delimiter
        }
    }
}

package dev.brisk.data;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads the lines of a CSV file one at a time, splitting on the bytes of {@code \n}, {@code \r} and {@code \r\n}
 * before decoding, so that every line has an exact line number and byte offset, a byte the charset cannot decode
 * spoils only its own line, and a line longer than the limit is skipped without being kept. A bad line is a
 * {@link BadRecordException} naming the file, the line and the byte offset; the next call continues after it.
 */
final class CsvLineReader implements Closeable {
    private static final int BUFFER = 1 << 16;

    private final InputStream in;
    private final Path file;
    private final Charset charset;
    private final CharsetDecoder decoder;
    private final int maxChars;
    /** Bytes kept of one line at most: a line of more cannot have {@link #maxChars} characters or fewer. */
    private final long maxBytes;
    private final byte[] buffer = new byte[BUFFER];
    private int bufferPos;
    private int bufferEnd;
    /** Offset in the file of {@code buffer[0]}. */
    private long bufferOffset;
    private byte[] lineBytes = new byte[256];
    private CharBuffer chars = CharBuffer.allocate(256);
    /** A {@code \r} ended the last line: a {@code \n} right after it belongs to the same line break. */
    private boolean afterCr;
    private boolean eof;
    private long line;
    private long lineOffset;

    /**
     * Reads {@code in}, the contents of {@code file}, in {@code charset}; lines of more than {@code maxChars}
     * characters are bad records.
     *
     * @throws IllegalArgumentException if {@code charset} does not write line breaks as the ASCII bytes
     */
    CsvLineReader(InputStream in, Path file, Charset charset, int maxChars) {
        requireAsciiLineBreaks(charset);
        this.in = in;
        this.file = file;
        this.charset = charset;
        this.decoder = charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        this.maxChars = maxChars;
        this.maxBytes = Math.min(Integer.MAX_VALUE - 8L,
                (long) Math.ceil(maxChars * (double) charset.newEncoder().maxBytesPerChar()));
    }

    /**
     * Refuses charsets in which a line break is not the single ASCII byte (UTF-16, UTF-32): lines are split on
     * those bytes before decoding.
     */
    static void requireAsciiLineBreaks(Charset charset) {
        CharsetEncoder encoder = charset.newEncoder();
        try {
            ByteBuffer breaks = encoder.encode(CharBuffer.wrap("\n\r"));
            byte[] bytes = Arrays.copyOfRange(breaks.array(), breaks.arrayOffset(), breaks.limit());
            if (Arrays.equals(bytes, "\n\r".getBytes(StandardCharsets.US_ASCII))) {
                return;
            }
        } catch (CharacterCodingException | UnsupportedOperationException e) {
            // refused below
        }
        throw new IllegalArgumentException("charset " + charset.name() + " is not supported for CSV: line breaks "
                + "must be the ASCII bytes (as in UTF-8, ISO-8859-1, windows-1252)");
    }

    /** The 1-based number of the line last returned (or found bad). */
    long line() {
        return line;
    }

    /** The byte offset in the file where the line last returned (or found bad) starts. */
    long lineOffset() {
        return lineOffset;
    }

    /**
     * The next line without its line break, or null at the end of the file.
     *
     * @throws BadRecordException if the line is longer than the limit or holds bytes the charset cannot decode
     */
    String next() throws IOException {
        if (eof) {
            return null;
        }
        int length = 0;
        long total = 0;
        boolean started = false;
        while (true) {
            if (bufferPos == bufferEnd && !fill()) {
                eof = true;
                if (!started) {
                    return null;
                }
                break;
            }
            byte b = buffer[bufferPos];
            if (afterCr) {
                afterCr = false;
                if (b == '\n') {
                    bufferPos++;
                    continue;
                }
            }
            if (!started) {
                started = true;
                line++;
                lineOffset = bufferOffset + bufferPos;
            }
            bufferPos++;
            if (b == '\n' || b == '\r') {
                afterCr = b == '\r';
                break;
            }
            total++;
            if (total <= maxBytes) {
                if (length == lineBytes.length) {
                    lineBytes = Arrays.copyOf(lineBytes, (int) Math.min(maxBytes, 2L * length));
                }
                lineBytes[length++] = b;
            }
        }
        if (total > maxBytes) {
            throw tooLong("more than " + maxBytes + " bytes");
        }
        return decode(length);
    }

    private String decode(int length) {
        int capacity = (int) Math.min(Integer.MAX_VALUE - 8L,
                (long) Math.ceil(length * (double) decoder.maxCharsPerByte()));
        if (chars.capacity() < capacity) {
            chars = CharBuffer.allocate(capacity);
        }
        chars.clear();
        ByteBuffer bytes = ByteBuffer.wrap(lineBytes, 0, length);
        decoder.reset();
        CoderResult result = decoder.decode(bytes, chars, true);
        if (!result.isError()) {
            result = decoder.flush(chars);
        }
        if (result.isError()) {
            long at = lineOffset + bytes.position();
            StringBuilder hex = new StringBuilder();
            for (int i = 0; i < result.length(); i++) {
                hex.append(i > 0 ? " " : "").append(String.format("0x%02X", lineBytes[bytes.position() + i] & 0xFF));
            }
            throw new BadRecordException(file, line, file + " line " + line + ": byte " + hex + " at offset " + at
                    + " is not valid " + charset.name() + " (set the charset on CsvDataset.builder if the file is "
                    + "in another encoding)");
        }
        chars.flip();
        if (chars.length() > maxChars) {
            throw tooLong(chars.length() + " characters");
        }
        return chars.toString();
    }

    private BadRecordException tooLong(String size) {
        return new BadRecordException(file, line, file + " line " + line + " (at offset " + lineOffset + "): the line "
                + "has " + size + ", over the limit of " + maxChars + " characters (brisk.csvMaxLineChars, or "
                + "maxLineChars on CsvDataset.builder)");
    }

    private boolean fill() throws IOException {
        bufferOffset += bufferEnd;
        bufferPos = 0;
        bufferEnd = 0;
        int n = in.read(buffer, 0, buffer.length);
        if (n <= 0) {
            return false;
        }
        bufferEnd = n;
        return true;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}

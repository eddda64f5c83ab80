package dev.brisk.io;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Counts the bytes read through it, so readers can name the offset of a problem in a file. */
public final class CountingInputStream extends FilterInputStream {
    private long count;

    /**
     * Counts the bytes read from {@code in}, starting at 0.
     *
     * @param in the stream to read from
     */
    public CountingInputStream(InputStream in) {
        super(in);
    }

    /**
     * Bytes read so far.
     *
     * @return the number of bytes read or skipped through this stream, i.e. the offset of the next byte
     */
    public long count() {
        return count;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            count++;
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0) {
            count += n;
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = super.skip(n);
        count += Math.max(0, skipped);
        return skipped;
    }
}

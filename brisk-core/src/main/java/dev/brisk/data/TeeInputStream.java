package dev.brisk.data;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Copies what is read from a stream to a sink. A sink that fails is dropped and the read goes on: the copy is an
 * extra, the read is the job (the sink itself knows that it failed).
 */
final class TeeInputStream extends FilterInputStream {
    private final OutputStream sink;
    private boolean failed;

    TeeInputStream(InputStream in, OutputStream sink) {
        super(in);
        this.sink = sink;
    }

    @Override
    public int read() throws IOException {
        int b = in.read();
        if (b >= 0 && !failed) {
            try {
                sink.write(b);
            } catch (IOException e) {
                failed = true;
            }
        }
        return b;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws IOException {
        int n = in.read(buf, off, len);
        if (n > 0 && !failed) {
            try {
                sink.write(buf, off, n);
            } catch (IOException e) {
                failed = true;
            }
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        // Skipped bytes would be missing from the copy; read them instead.
        long skipped = 0;
        byte[] buf = new byte[(int) Math.min(8192, Math.max(1, n))];
        while (skipped < n) {
            int r = read(buf, 0, (int) Math.min(buf.length, n - skipped));
            if (r < 0) {
                break;
            }
            skipped += r;
        }
        return skipped;
    }

    @Override
    public boolean markSupported() {
        return false;
    }
}

package dev.brisk.data;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.locks.LockSupport;

/**
 * Reads a known number of bytes from a stream into one array on a background thread, publishing how far it has got,
 * so that the caller can decode the front of the array while the rest is still being read (inflated).
 *
 * <p>Why: for Fashion-MNIST's training images, inflating the 26 MB file and allocating the 188 MB float array it
 * decodes into (the JVM zeroes it, and the kernel faults in every page) each take 120-300 ms on one core; side by
 * side they cost the longer of the two instead of their sum.
 *
 * <p>One caller thread; call {@link #finish()} (also after a failure of the caller's own) so the reader thread is
 * joined and the stream is quiet before the caller uses or closes it.
 */
final class BackgroundRead {
    /** Bytes read between publications of progress: a wake-up per megabyte is cheap, and decoding stays close. */
    private static final int CHUNK = 1 << 20;

    private final InputStream in;
    private final byte[] data;
    private final Thread caller;
    private final Thread reader;
    private volatile int filled;
    private volatile boolean finished;
    private Throwable failure; // written before finished is set, read after it is seen

    private BackgroundRead(InputStream in, int length, String threadName) {
        this.in = in;
        this.data = new byte[length];
        this.caller = Thread.currentThread();
        this.reader = Thread.ofPlatform().name(threadName).daemon().unstarted(this::readAll);
    }

    /** Starts reading up to {@code length} bytes of {@code in} on a daemon thread named {@code threadName}. */
    static BackgroundRead start(InputStream in, int length, String threadName) {
        BackgroundRead read = new BackgroundRead(in, length, threadName);
        read.reader.start();
        return read;
    }

    /** The array being filled; bytes below {@link #awaitFilled}'s result are final. */
    byte[] data() {
        return data;
    }

    private void readAll() {
        try {
            int n = 0;
            while (n < data.length) {
                int got = in.readNBytes(data, n, Math.min(CHUNK, data.length - n));
                n += got;
                filled = n;
                LockSupport.unpark(caller);
                if (got == 0) {
                    break; // end of stream: fewer bytes than promised
                }
            }
        } catch (Throwable t) {
            failure = t;
        } finally {
            finished = true;
            LockSupport.unpark(caller);
        }
    }

    /**
     * Waits until at least {@code atLeast} bytes are read or the read has ended, and returns how many are read. At
     * the end of a short stream or after a failure it returns fewer; {@link #finish()} then reports which.
     */
    int awaitFilled(int atLeast) throws InterruptedIOException {
        while (filled < atLeast && !finished) {
            LockSupport.park(this);
            if (Thread.interrupted()) {
                reader.interrupt();
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for a background read");
            }
        }
        return filled;
    }

    /**
     * Waits for the reader thread to end and returns how many bytes it read, rethrowing its exception (the same
     * {@link IOException} the stream threw) if it failed.
     */
    int finish() throws IOException {
        boolean interrupted = false;
        while (true) {
            try {
                reader.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // the stream must be quiet before the caller touches it: wait anyway
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Throwable t = failure;
        if (t instanceof IOException io) {
            throw io;
        }
        if (t instanceof RuntimeException re) {
            throw re;
        }
        if (t instanceof Error err) {
            throw err;
        }
        return filled;
    }
}

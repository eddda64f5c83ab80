package dev.brisk.data;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Reads a stream on a background thread into a few reused chunks, which the caller takes in order, decodes and
 * gives back, so that reading (inflating) and decoding run side by side and the raw bytes never exist all at once.
 *
 * <p>Why: for Fashion-MNIST's training images, inflating the 26 MB file and allocating the 188 MB float array it
 * decodes into (the JVM zeroes it, and the kernel faults in every page) take similar time on one core; side by
 * side they cost the longer of the two instead of their sum. Reusing up to 32 chunks of 1 MB instead of holding the
 * 47 MB of raw bytes also spares a young collection that copied them while the data loaded.
 *
 * <p>One caller thread: {@link #next()} until it returns null, {@link #release} each chunk, then {@link #finish()};
 * a caller that gives up early calls {@link #abandon} instead, so the reader thread is stopped and joined and the
 * stream is quiet before the caller uses or closes it.
 */
final class BackgroundRead {
    /** Bytes per chunk: a multiple of every IDX element size, so chunks hold whole elements until the last. */
    static final int CHUNK = 1 << 20;
    /**
     * Chunks in flight, at most: enough to keep inflating through the time the caller spends allocating a large
     * float array before it decodes the first chunk (half as many made the reader wait: docs/benchmark-log.md).
     */
    private static final int MAX_CHUNKS = 32;

    /** Bytes {@code [0, length)} of {@code data}; a terminal chunk has length -1. */
    record Chunk(byte[] data, int length) {
    }

    private static final Chunk END = new Chunk(new byte[0], -1);

    private final InputStream in;
    private final long length;
    /** Buffers the reader may allocate; it makes them as it needs them, then waits for one to come back. */
    private final int chunks;
    private final BlockingQueue<byte[]> free;
    private final BlockingQueue<Chunk> filled;
    private final Thread reader;
    private volatile long read;
    private boolean ended; // seen END; the caller's thread only
    private volatile boolean abandoning;
    private Throwable failure; // written before END is queued, read after the reader is joined

    private BackgroundRead(InputStream in, long length, String threadName) {
        this.in = in;
        this.length = length;
        this.chunks = (int) Math.max(1, Math.min(MAX_CHUNKS, (length + CHUNK - 1) / CHUNK));
        this.free = new ArrayBlockingQueue<>(chunks);
        this.filled = new ArrayBlockingQueue<>(chunks + 1);
        this.reader = Thread.ofPlatform().name(threadName).daemon().unstarted(this::readAll);
    }

    /** Starts reading up to {@code length} bytes of {@code in} on a daemon thread named {@code threadName}. */
    static BackgroundRead start(InputStream in, long length, String threadName) {
        BackgroundRead read = new BackgroundRead(in, length, threadName);
        read.reader.start();
        return read;
    }

    private void readAll() {
        try {
            long n = 0;
            int allocated = 0;
            while (n < length) {
                byte[] buffer = free.poll();
                if (buffer == null) {
                    if (allocated < chunks) {
                        buffer = new byte[(int) Math.min(CHUNK, length)];
                        allocated++;
                    } else {
                        buffer = free.take();
                    }
                }
                int got = in.readNBytes(buffer, 0, (int) Math.min(CHUNK, length - n));
                n += got;
                read = n;
                if (got > 0) {
                    filled.put(new Chunk(buffer, got));
                }
                if (got < CHUNK) {
                    break; // the last chunk, or the end of a stream shorter than promised
                }
            }
        } catch (InterruptedException e) {
            failure = new Cancelled();
        } catch (Throwable t) {
            // Interrupting a read of an interruptible channel closes it: that failure is the abandon's, not the file's.
            failure = abandoning ? new Cancelled() : t;
        } finally {
            filled.add(END); // always room: at most one data chunk per buffer is queued
        }
    }

    /** The next chunk read, in order, or null once the read has ended (completely, short, or failed). */
    Chunk next() throws InterruptedIOException {
        if (ended) {
            return null;
        }
        try {
            Chunk c = filled.take();
            if (c == END) {
                ended = true;
                return null;
            }
            return c;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for a background read");
        }
    }

    /** Gives a chunk from {@link #next()} back for reuse once it is decoded. */
    void release(Chunk chunk) {
        free.add(chunk.data());
    }

    /**
     * Waits for the reader and returns how many bytes it read, rethrowing its exception (the same {@link
     * IOException} the stream threw, with a suppressed note of where it was rethrown) if it failed. Call it after
     * {@link #next()} returned null.
     */
    long finish() throws IOException {
        join();
        Throwable t = failure;
        if (t == null) {
            return read;
        }
        t.addSuppressed(new Exception("rethrown on " + Thread.currentThread().getName()
                + ", which waited for the read"));
        if (t instanceof IOException io) {
            throw io;
        }
        if (t instanceof RuntimeException re) {
            throw re;
        }
        if (t instanceof Error err) {
            throw err;
        }
        throw new IOException(t); // readAll catches only what the stream can throw; unreachable
    }

    /**
     * For a caller that gives up before the end: stops the reader (a reader blocked on an interruptible stream
     * closes it) and waits for it, then adds the reader's own failure, if it had one, to {@code callerFailure}.
     */
    void abandon(Throwable callerFailure) {
        abandoning = true;
        reader.interrupt();
        join();
        Throwable t = failure;
        if (t != null && !(t instanceof Cancelled) && t != callerFailure) {
            callerFailure.addSuppressed(t);
        }
    }

    /** Joins the reader, also when this thread is interrupted (the stream must be quiet before its owner uses it). */
    private void join() {
        boolean interrupted = false;
        while (true) {
            try {
                reader.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** The reader's failure when it was interrupted by {@link #abandon}, as opposed to one of the stream's. */
    private static final class Cancelled extends InterruptedIOException {
        Cancelled() {
            super("background read cancelled");
        }
    }
}

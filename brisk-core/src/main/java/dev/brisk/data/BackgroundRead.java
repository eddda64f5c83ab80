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
 * decodes into (the JVM zeroes it, and the kernel faults in every page) each take 120-300 ms on one core; side by
 * side they cost the longer of the two instead of their sum. Reusing up to 32 chunks of 1 MB instead of holding the
 * 47 MB of raw bytes also spares a young collection that copied them while the data loaded.
 *
 * <p>One caller thread: {@link #next()} until it returns null, {@link #release} each chunk, then {@link #finish()};
 * call {@code finish()} also when the caller gives up early, so the reader thread is stopped and joined and the
 * stream is quiet before the caller uses or closes it.
 */
final class BackgroundRead {
    /** Bytes per chunk: a multiple of every IDX element size, so chunks hold whole elements until the last. */
    static final int CHUNK = 1 << 20;
    /**
     * Chunks in flight, at most: enough to keep inflating (about 6 ms a megabyte) through the 120-160 ms the caller
     * spends allocating Fashion-MNIST's float array before it decodes the first chunk (16 were too few: the reader
     * waited, and the load took 310-350 ms instead of 260-300).
     */
    private static final int MAX_CHUNKS = 32;

    /** Bytes {@code [0, length)} of {@code data}; a terminal chunk has length -1. */
    record Chunk(byte[] data, int length) {
    }

    private static final Chunk END = new Chunk(new byte[0], -1);

    private final InputStream in;
    private final long length;
    private final BlockingQueue<byte[]> free;
    private final BlockingQueue<Chunk> filled;
    private final Thread reader;
    private volatile long read;
    private volatile boolean ended;
    private Throwable failure; // written before END is queued, read after the reader is joined

    private BackgroundRead(InputStream in, long length, String threadName) {
        this.in = in;
        this.length = length;
        int chunks = (int) Math.min(MAX_CHUNKS, (length + CHUNK - 1) / CHUNK);
        this.free = new ArrayBlockingQueue<>(Math.max(1, chunks));
        this.filled = new ArrayBlockingQueue<>(chunks + 1);
        for (int i = 0; i < chunks; i++) {
            free.add(new byte[(int) Math.min(CHUNK, length)]);
        }
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
            while (n < length) {
                byte[] buffer = free.take();
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
            failure = new InterruptedIOException("background read cancelled");
        } catch (Throwable t) {
            failure = t;
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
     * IOException} the stream threw) if it failed; if the caller gave up before {@link #next()} returned null, stops
     * the reader instead and reports nothing.
     */
    long finish() throws IOException {
        boolean abandoned = !ended;
        if (abandoned) {
            reader.interrupt(); // unblocks a reader waiting for a free chunk
        }
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
        if (abandoned) {
            return read; // the caller's own failure is the one to report, not the cancelled read's
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
        return read;
    }
}

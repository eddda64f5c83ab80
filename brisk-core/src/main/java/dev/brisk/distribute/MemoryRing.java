package dev.brisk.distribute;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A ring between threads of one process: each link is a queue of float arrays. Sending copies the floats and never
 * waits; receiving waits at most the timeout. A rank that closes its end puts a marker on its outgoing link, so
 * the next rank's receive fails at once with an error naming it.
 */
public final class MemoryRing implements RingTransport {
    /** Put on a link by a rank that left. */
    private static final float[] CLOSED = new float[0];

    private final int rank;
    private final int size;
    private final BlockingQueue<float[]> out;
    private final BlockingQueue<float[]> in;
    private final long timeoutNanos;
    private volatile boolean closed;

    private MemoryRing(int rank, int size, BlockingQueue<float[]> out, BlockingQueue<float[]> in, Duration timeout) {
        this.rank = rank;
        this.size = size;
        this.out = out;
        this.in = in;
        this.timeoutNanos = timeout.toNanos();
    }

    /**
     * The {@code size} ends of a new ring, one per rank, in rank order.
     *
     * @param size the number of ranks, at least 1
     * @param timeout how long a receive waits for the previous rank
     * @return the transports, element {@code r} for rank {@code r}
     */
    public static List<MemoryRing> create(int size, Duration timeout) {
        if (size < 1) {
            throw new IllegalArgumentException("a ring needs at least one rank, got " + size);
        }
        List<BlockingQueue<float[]>> links = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            links.add(new LinkedBlockingQueue<>());
        }
        List<MemoryRing> ends = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            // Link r carries rank r's messages to rank r + 1.
            ends.add(new MemoryRing(r, size, links.get(r), links.get(RingChunks.mod(r - 1, size)), timeout));
        }
        return ends;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public void exchange(float[] send, int sendOffset, int sendLength, float[] receive, int receiveOffset,
                         int receiveLength) throws RingException {
        if (closed) {
            throw new RingException("rank " + rank + " of the ring was closed");
        }
        float[] message = new float[sendLength];
        System.arraycopy(send, sendOffset, message, 0, sendLength);
        out.add(message);
        float[] got;
        try {
            got = in.poll(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RingException("rank " + rank + " was interrupted waiting for rank " + previous(), e);
        }
        if (got == null) {
            throw new RingException("rank " + rank + " timed out after " + Duration.ofNanos(timeoutNanos).toMillis()
                    + " ms waiting for rank " + previous());
        }
        if (got == CLOSED) {
            in.add(CLOSED);
            throw new RingException("rank " + previous() + " left the ring (seen by rank " + rank + ")");
        }
        if (got.length != receiveLength) {
            throw new RingException("rank " + rank + " expected " + receiveLength + " floats from rank " + previous()
                    + " but got " + got.length + " (do all ranks reduce vectors of the same length?)");
        }
        System.arraycopy(got, 0, receive, receiveOffset, receiveLength);
    }

    private int previous() {
        return RingChunks.mod(rank - 1, size);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            out.add(CLOSED);
        }
    }
}

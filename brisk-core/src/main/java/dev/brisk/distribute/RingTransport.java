package dev.brisk.distribute;

import java.io.Closeable;
import java.io.IOException;

/**
 * One rank's links in a ring of {@link #size()} ranks: it sends to rank {@code rank + 1} and receives from rank
 * {@code rank - 1} (both modulo the size). The ring all-reduce needs nothing else.
 *
 * <p>Every operation ends within the transport's timeout: a peer that stops answering or leaves gives a
 * {@link RingException} naming it, never a hang.
 */
public interface RingTransport extends Closeable {
    /**
     * This rank's position in the ring.
     *
     * @return the rank, in {@code [0, size())}
     */
    int rank();

    /**
     * The number of ranks in the ring.
     *
     * @return the ring's size, at least 1
     */
    int size();

    /**
     * Sends {@code sendLength} floats of {@code send} to the next rank and, at the same time, receives
     * {@code receiveLength} floats from the previous rank into {@code receive}. Both directions proceed together, so
     * a ring in which every rank sends before it receives cannot deadlock, whatever the buffer sizes.
     *
     * @param send the floats to send
     * @param sendOffset where they start
     * @param sendLength how many to send
     * @param receive where the received floats go
     * @param receiveOffset where they start
     * @param receiveLength how many to receive (the previous rank sends exactly this many)
     * @throws IOException when a peer leaves, sends too few, or does not answer within the timeout
     */
    void exchange(float[] send, int sendOffset, int sendLength, float[] receive, int receiveOffset, int receiveLength)
            throws IOException;

    /** Leaves the ring: the neighbours' next operation fails with an error that names this rank. */
    @Override
    void close() throws IOException;
}

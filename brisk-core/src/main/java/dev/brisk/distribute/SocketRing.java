package dev.brisk.distribute;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.List;

/**
 * A ring over TCP: each rank keeps one connection to the next rank (which it opened) and one from the previous rank
 * (which it accepted on its {@link RingListener}).
 *
 * <p>Joining: every rank first listens ({@link RingListener#open}), the ranks exchange their addresses (on Spark,
 * once, with {@code BarrierTaskContext.allGather}), then each calls {@link #join}. The opening side sends a
 * greeting with the job's random token, its rank and the ring's size; the listening side accepts only a greeting
 * from the previous rank with the same token and answers with the token, which the opening side checks in turn.
 * Connections that fail the check are closed and the listener keeps waiting for the right one until the timeout.
 *
 * <p>Every message carries its length, so ranks that disagree about a vector's length fail with an error instead of
 * reading each other's bytes as floats. Floats travel little-endian. No operation waits longer than the timeout
 * without progress.
 */
public final class SocketRing implements RingTransport {
    /** "BRRG": the first bytes of a greeting. */
    static final int MAGIC = 0x42525247;
    /** Bytes of a job's token. */
    public static final int TOKEN_BYTES = 16;
    private static final int SOCKET_BUFFER = 4 << 20;

    private final int rank;
    private final int size;
    private final SocketChannel next;
    private final SocketChannel previous;
    private final String nextName;
    private final String previousName;
    private final long timeoutNanos;
    private final Selector selector;
    private final SelectionKey nextKey;
    private final SelectionKey previousKey;
    private ByteBuffer sendBuffer = ByteBuffer.allocateDirect(0);
    private ByteBuffer receiveBuffer = ByteBuffer.allocateDirect(0);

    private SocketRing(int rank, int size, SocketChannel next, SocketChannel previous, Duration timeout)
            throws IOException {
        this.rank = rank;
        this.size = size;
        this.next = next;
        this.previous = previous;
        this.nextName = "rank " + RingChunks.mod(rank + 1, size) + " at " + next.getRemoteAddress();
        this.previousName = "rank " + RingChunks.mod(rank - 1, size) + " at " + previous.getRemoteAddress();
        this.timeoutNanos = timeout.toNanos();
        this.selector = Selector.open();
        this.nextKey = next.register(selector, 0);
        this.previousKey = previous.register(selector, 0);
    }

    /**
     * Joins the ring: connects to rank {@code rank + 1} at {@code addresses}, accepts rank {@code rank - 1} on
     * {@code listener}, and checks both ends' tokens. The listener is closed when this returns or fails.
     *
     * @param listener this rank's listener, whose address is {@code addresses.get(rank)}
     * @param rank this rank
     * @param addresses every rank's listening address, in rank order
     * @param token the job's random token ({@link #TOKEN_BYTES} bytes, from {@link RingListener#newToken()})
     * @param timeout how long any one operation may wait, joining included
     * @return this rank's end of the ring
     * @throws IOException when a peer cannot be reached, refuses the token, or the timeout passes
     */
    public static RingTransport join(RingListener listener, int rank, List<InetSocketAddress> addresses, byte[] token,
                                  Duration timeout) throws IOException {
        int size = addresses.size();
        if (rank < 0 || rank >= size) {
            throw new IllegalArgumentException("rank " + rank + " is outside a ring of " + size);
        }
        if (token.length != TOKEN_BYTES) {
            throw new IllegalArgumentException("a ring token has " + TOKEN_BYTES + " bytes, got " + token.length);
        }
        if (size == 1) {
            listener.close();
            return MemoryRing.create(1, timeout).get(0);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        SocketChannel next = null;
        SocketChannel previous = null;
        try (listener) {
            int nextRank = (rank + 1) % size;
            InetSocketAddress nextAddress = addresses.get(nextRank);
            String nextName = "rank " + nextRank + " at " + nextAddress;
            next = connect(nextAddress, deadline, nextName);
            ChannelIo.writeFully(next, greeting(token, rank, size), deadline, nextName);
            previous = listener.acceptPeer(token, RingChunks.mod(rank - 1, size), size, deadline);
            ByteBuffer reply = ByteBuffer.allocate(8 + TOKEN_BYTES);
            ChannelIo.readFully(next, reply, deadline, nextName);
            reply.flip();
            if (reply.getInt() != MAGIC || !tokenMatches(reply, token) || reply.getInt() != nextRank) {
                throw new RingException("rank " + rank + ": " + nextName + " did not answer with this job's token "
                        + "and its rank; is another job, or another program, listening there?");
            }
            return new SocketRing(rank, size, next, previous, timeout);
        } catch (IOException | RuntimeException e) {
            closeQuietly(next);
            closeQuietly(previous);
            throw e;
        }
    }

    /** The greeting the opening side sends: magic, token, rank, size. */
    static ByteBuffer greeting(byte[] token, int rank, int size) {
        ByteBuffer b = ByteBuffer.allocate(12 + TOKEN_BYTES);
        b.putInt(MAGIC).put(token).putInt(rank).putInt(size).flip();
        return b;
    }

    /** Reads {@link #TOKEN_BYTES} bytes of {@code b} and compares them with {@code token} in constant time. */
    static boolean tokenMatches(ByteBuffer b, byte[] token) {
        byte[] got = new byte[TOKEN_BYTES];
        b.get(got);
        return MessageDigest.isEqual(got, token);
    }

    private static SocketChannel connect(InetSocketAddress address, long deadline, String name) throws IOException {
        IOException last = null;
        while (System.nanoTime() < deadline) {
            SocketChannel ch = SocketChannel.open();
            try {
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ch.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER);
                ch.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER);
                ch.socket().connect(address, (int) Math.min(Integer.MAX_VALUE, ChannelIo.millisLeft(deadline)));
                ch.configureBlocking(false);
                return ch;
            } catch (IOException e) {
                closeQuietly(ch);
                last = e;
                // The peer may not listen yet (a retried task); try again shortly.
                try {
                    Thread.sleep(Math.min(50, ChannelIo.millisLeft(deadline)));
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new RingException("interrupted connecting to " + name, ie);
                }
            }
        }
        throw new RingException("could not connect to " + name + " before the timeout", last);
    }

    static void closeQuietly(java.io.Closeable c) {
        if (c != null) {
            try {
                c.close();
            } catch (IOException ignored) {
                // Closing after a failure: the failure is what the caller reports.
            }
        }
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
                         int receiveLength) throws IOException {
        ByteBuffer out = sendBuffer(4 + 4L * sendLength);
        out.putInt(sendLength);
        out.asFloatBuffer().put(send, sendOffset, sendLength);
        out.position(0).limit(4 + 4 * sendLength);
        ByteBuffer in = receiveBuffer(4 + 4L * receiveLength);
        in.position(0).limit(4 + 4 * receiveLength);
        long deadline = System.nanoTime() + timeoutNanos;
        while (out.hasRemaining() || in.hasRemaining()) {
            long moved = 0;
            try {
                if (out.hasRemaining()) {
                    moved += next.write(out);
                }
            } catch (IOException e) {
                throw new RingException("rank " + rank + " lost " + nextName + ": " + e.getMessage(), e);
            }
            if (in.hasRemaining()) {
                int n;
                try {
                    n = previous.read(in);
                } catch (IOException e) {
                    throw new RingException("rank " + rank + " lost " + previousName + ": " + e.getMessage(), e);
                }
                if (n < 0) {
                    throw new RingException(previousName + " left the ring (seen by rank " + rank + ")");
                }
                moved += n;
            }
            if (moved > 0) {
                deadline = System.nanoTime() + timeoutNanos;
                continue;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new RingException("rank " + rank + " timed out after " + timeoutNanos / 1_000_000 + " ms "
                        + (in.hasRemaining() ? "waiting for " + previousName : "sending to " + nextName));
            }
            nextKey.interestOps(out.hasRemaining() ? SelectionKey.OP_WRITE : 0);
            previousKey.interestOps(in.hasRemaining() ? SelectionKey.OP_READ : 0);
            selector.select(Math.max(1, left / 1_000_000));
            selector.selectedKeys().clear();
        }
        in.position(0);
        int length = in.getInt();
        if (length != receiveLength) {
            throw new RingException("rank " + rank + " expected " + receiveLength + " floats from " + previousName
                    + " but it sent " + length + " (do all ranks reduce vectors of the same length?)");
        }
        in.asFloatBuffer().get(receive, receiveOffset, receiveLength);
    }

    private ByteBuffer sendBuffer(long bytes) {
        if (sendBuffer.capacity() < bytes) {
            sendBuffer = ByteBuffer.allocateDirect(Math.toIntExact(bytes)).order(ByteOrder.LITTLE_ENDIAN);
        }
        sendBuffer.clear();
        return sendBuffer;
    }

    private ByteBuffer receiveBuffer(long bytes) {
        if (receiveBuffer.capacity() < bytes) {
            receiveBuffer = ByteBuffer.allocateDirect(Math.toIntExact(bytes)).order(ByteOrder.LITTLE_ENDIAN);
        }
        receiveBuffer.clear();
        return receiveBuffer;
    }

    @Override
    public void close() throws IOException {
        closeQuietly(selector);
        closeQuietly(next);
        closeQuietly(previous);
    }
}

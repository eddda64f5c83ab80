package dev.brisk.distribute;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;

/**
 * A small authenticated message channel over TCP, for control traffic beside the ring: a worker streams its epoch
 * logs to the process that runs the callbacks and waits for its answer (stop or go on). Messages are byte arrays,
 * each sent with its length; the sides take turns (one message, one reply).
 *
 * <p>The opening side ({@link #connect}) sends a greeting with the job's random token; the listening side
 * ({@link ControlListener#accept}) accepts only that token and answers with it, which the opening side checks in
 * turn, as the ring does. Every socket operation gives up after the timeout: the channel is non-blocking and each
 * wait is a {@code select} with the time left.
 */
public final class ControlChannel implements Closeable {
    /** "BRCL": the first bytes of a greeting. */
    static final int MAGIC = 0x4252434C;
    /** The largest message either side accepts, so a damaged length cannot make the reader allocate gigabytes. */
    static final int MAX_MESSAGE = 1 << 30;

    private final SocketChannel channel;
    private final String peer;
    private final long timeoutNanos;

    ControlChannel(SocketChannel channel, String peer, Duration timeout) {
        this.channel = channel;
        this.peer = peer;
        this.timeoutNanos = timeout.toNanos();
    }

    /**
     * Connects to a {@link ControlListener} at {@code address} and checks that it answers with {@code token}.
     *
     * @param address where the listener listens
     * @param token the job's token ({@link SocketRing#TOKEN_BYTES} bytes, from {@link RingListener#newToken()})
     * @param timeout how long connecting, and later any one read or write, may wait
     * @return the channel
     * @throws IOException when the listener cannot be reached, answers with another token, or times out
     */
    public static ControlChannel connect(InetSocketAddress address, byte[] token, Duration timeout)
            throws IOException {
        if (token.length != SocketRing.TOKEN_BYTES) {
            throw new IllegalArgumentException("a token has " + SocketRing.TOKEN_BYTES + " bytes, got "
                    + token.length);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        String name = "the control listener at " + address;
        SocketChannel ch = SocketChannel.open();
        try {
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ch.socket().connect(address, (int) Math.min(Integer.MAX_VALUE, ChannelIo.millisLeft(deadline)));
            ch.configureBlocking(false);
            ByteBuffer hello = ByteBuffer.allocate(4 + SocketRing.TOKEN_BYTES);
            hello.putInt(MAGIC).put(token).flip();
            ChannelIo.writeFully(ch, hello, deadline, name);
            ByteBuffer reply = ByteBuffer.allocate(4 + SocketRing.TOKEN_BYTES);
            ChannelIo.readFully(ch, reply, deadline, name);
            reply.flip();
            if (reply.getInt() != MAGIC || !SocketRing.tokenMatches(reply, token)) {
                throw new RingException(name + " did not answer with this job's token; is another job, or another "
                        + "program, listening there?");
            }
            return new ControlChannel(ch, name, timeout);
        } catch (IOException | RuntimeException e) {
            SocketRing.closeQuietly(ch);
            throw e;
        }
    }

    /**
     * Sends one message.
     *
     * @param message the bytes
     * @throws IOException when the peer has gone or does not take the bytes within the timeout
     */
    public void send(byte[] message) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(4 + message.length);
        b.putInt(message.length).put(message).flip();
        ChannelIo.writeFully(channel, b, System.nanoTime() + timeoutNanos, peer);
    }

    /**
     * Waits for the next message, at most the timeout.
     *
     * @return the message
     * @throws IOException when the peer has gone, sends a damaged length, or the timeout passes
     */
    public byte[] receive() throws IOException {
        byte[] m = poll(Duration.ofNanos(timeoutNanos));
        if (m == null) {
            throw new RingException("timed out after " + timeoutNanos / 1_000_000 + " ms waiting for " + peer);
        }
        return m;
    }

    /**
     * Waits at most {@code wait} for a message to begin; once its first byte has come, the rest must follow within
     * the channel's timeout.
     *
     * @param wait how long to wait for a message to begin
     * @return the message, or null when none began within {@code wait}
     * @throws IOException when the peer has gone, sends a damaged length, or stalls within a message
     */
    public byte[] poll(Duration wait) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(4);
        try (Selector sel = Selector.open()) {
            SelectionKey key = channel.register(sel, SelectionKey.OP_READ);
            long begin = System.nanoTime() + wait.toNanos();
            while (header.position() == 0) {
                int n = channel.read(header);
                if (n < 0) {
                    throw new RingException(peer + " closed the connection");
                }
                if (n == 0) {
                    long left = begin - System.nanoTime();
                    if (left <= 0) {
                        return null;
                    }
                    sel.select(Math.max(1, left / 1_000_000));
                    sel.selectedKeys().clear();
                }
            }
            key.cancel();
        }
        ChannelIo.readFully(channel, header, System.nanoTime() + timeoutNanos, peer);
        header.flip();
        int length = header.getInt();
        if (length < 0 || length > MAX_MESSAGE) {
            throw new RingException(peer + " sent a message of " + length + " bytes (at most " + MAX_MESSAGE
                    + "): is it speaking this protocol?");
        }
        ByteBuffer body = ByteBuffer.allocate(length);
        ChannelIo.readFully(channel, body, System.nanoTime() + timeoutNanos, peer);
        return body.array();
    }

    /**
     * Who is at the other end, for messages.
     *
     * @return a description of the peer
     */
    public String peer() {
        return peer;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}

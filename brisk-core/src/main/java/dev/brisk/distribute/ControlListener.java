package dev.brisk.distribute;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;

/**
 * The listening end of {@link ControlChannel}s: accepts connections that greet with the job's token, one at a time,
 * for as long as it is open (a worker that fails and is started again connects anew).
 */
public final class ControlListener implements Closeable {
    /** How long one connection may take to send its greeting, so a silent stranger cannot hold the listener. */
    private static final long GREETING_NANOS = 5_000_000_000L;

    private final ServerSocketChannel server;
    private final InetSocketAddress address;
    private final byte[] token;
    private final Duration timeout;

    private ControlListener(ServerSocketChannel server, InetSocketAddress address, byte[] token, Duration timeout) {
        this.server = server;
        this.address = address;
        this.token = token.clone();
        this.timeout = timeout;
    }

    /**
     * Listens on {@code bind}, port {@code port} (0: any free port), for connections carrying {@code token}.
     *
     * @param bind the address to listen on
     * @param port the port, or 0 for one the system picks
     * @param token the job's token ({@link SocketRing#TOKEN_BYTES} bytes)
     * @param timeout how long any one read or write of an accepted channel may wait
     * @return the listener
     * @throws IOException when the address cannot be bound
     */
    public static ControlListener open(InetAddress bind, int port, byte[] token, Duration timeout)
            throws IOException {
        if (token.length != SocketRing.TOKEN_BYTES) {
            throw new IllegalArgumentException("a token has " + SocketRing.TOKEN_BYTES + " bytes, got "
                    + token.length);
        }
        ServerSocketChannel s = ServerSocketChannel.open();
        try {
            s.bind(new InetSocketAddress(bind, port), 4);
            s.configureBlocking(false);
            InetSocketAddress local = (InetSocketAddress) s.getLocalAddress();
            return new ControlListener(s, new InetSocketAddress(bind, local.getPort()), token, timeout);
        } catch (IOException e) {
            s.close();
            throw new IOException("could not listen for control connections on " + bind + " port " + port + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * Where this listener accepts connections.
     *
     * @return the bound address and port
     */
    public InetSocketAddress address() {
        return address;
    }

    /**
     * Accepts the next connection that greets with this job's token, waiting at most {@code wait}; connections
     * with another token, or none within five seconds, are closed and reported on standard error.
     *
     * @param wait how long to wait for a connection
     * @return the channel, or null when no good connection came within {@code wait}
     * @throws IOException when the listener fails
     */
    public ControlChannel accept(Duration wait) throws IOException {
        long deadline = System.nanoTime() + wait.toNanos();
        try (Selector sel = Selector.open()) {
            server.register(sel, SelectionKey.OP_ACCEPT);
            while (true) {
                SocketChannel ch = ChannelIo.accept(server, sel, deadline);
                if (ch == null) {
                    return null;
                }
                String peer = "a peer";
                try {
                    peer = "the peer at " + ch.getRemoteAddress();
                    ch.configureBlocking(false);
                    ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                    long greeting = System.nanoTime() + GREETING_NANOS;
                    ByteBuffer hello = ByteBuffer.allocate(4 + SocketRing.TOKEN_BYTES);
                    ChannelIo.readFully(ch, hello, greeting, peer);
                    hello.flip();
                    if (hello.getInt() == ControlChannel.MAGIC && SocketRing.tokenMatches(hello, token)) {
                        ByteBuffer reply = ByteBuffer.allocate(4 + SocketRing.TOKEN_BYTES);
                        reply.putInt(ControlChannel.MAGIC).put(token).flip();
                        ChannelIo.writeFully(ch, reply, greeting, peer);
                        return new ControlChannel(ch, peer, timeout);
                    }
                    System.err.println("brisk: control listener " + address + " refused " + peer
                            + ": it did not send this job's token");
                } catch (IOException e) {
                    // A connection that fails during its greeting is the stranger's problem, not the listener's.
                    System.err.println("brisk: control listener " + address + " refused " + peer + ": "
                            + e.getMessage());
                }
                SocketRing.closeQuietly(ch);
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}

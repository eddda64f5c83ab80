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
import java.security.SecureRandom;

/**
 * The listening socket of one rank of a {@link SocketRing}: opened before the ranks exchange addresses, so that
 * each rank can publish where it listens, and closed once the ring is joined (one connection is accepted).
 */
public final class RingListener implements Closeable {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int SOCKET_BUFFER = 4 << 20;
    /** How long one connection may take to send its greeting, so a silent stranger cannot hold the listener. */
    private static final long GREETING_NANOS = 5_000_000_000L;

    private final ServerSocketChannel server;
    private final InetSocketAddress address;

    private RingListener(ServerSocketChannel server, InetSocketAddress address) {
        this.server = server;
        this.address = address;
    }

    /**
     * Listens on {@code bind}, port {@code port} (0: any free port).
     *
     * @param bind the address to listen on: the host's own address on a cluster, never a wildcard in production
     * @param port the port, or 0 for one the system picks
     * @return the listener
     * @throws IOException when the address cannot be bound
     */
    public static RingListener open(InetAddress bind, int port) throws IOException {
        ServerSocketChannel s = ServerSocketChannel.open();
        try {
            s.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER);
            s.bind(new InetSocketAddress(bind, port), 4);
            s.configureBlocking(false);
            InetSocketAddress local = (InetSocketAddress) s.getLocalAddress();
            return new RingListener(s, new InetSocketAddress(bind, local.getPort()));
        } catch (IOException e) {
            s.close();
            throw new IOException("could not listen for the ring on " + bind + " port " + port + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * A fresh random token for one job (from {@link SecureRandom}).
     *
     * @return {@link SocketRing#TOKEN_BYTES} random bytes
     */
    public static byte[] newToken() {
        byte[] t = new byte[SocketRing.TOKEN_BYTES];
        RANDOM.nextBytes(t);
        return t;
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
     * Accepts the previous rank: connections whose greeting has another token, rank or ring size are closed, and
     * the listener waits on until {@code deadline}.
     */
    SocketChannel acceptPeer(byte[] token, int expectedRank, int size, long deadline) throws IOException {
        String refused = null;
        try (Selector sel = Selector.open()) {
            server.register(sel, SelectionKey.OP_ACCEPT);
            while (true) {
                SocketChannel ch = ChannelIo.accept(server, sel, deadline);
                if (ch == null) {
                    throw new RingException("no connection from rank " + expectedRank + " reached " + address
                            + " before the timeout" + (refused == null ? "" : "; refused: " + refused));
                }
                try {
                    ch.configureBlocking(false);
                    ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                    ch.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER);
                    String peer = "the peer at " + ch.getRemoteAddress();
                    ByteBuffer hello = ByteBuffer.allocate(12 + SocketRing.TOKEN_BYTES);
                    ChannelIo.readFully(ch, hello, Math.min(deadline, System.nanoTime() + GREETING_NANOS), peer);
                    hello.flip();
                    boolean ok = hello.getInt() == SocketRing.MAGIC && SocketRing.tokenMatches(hello, token);
                    int rank = hello.getInt();
                    int ringSize = hello.getInt();
                    if (!ok) {
                        refused = peer + " did not send this job's token";
                    } else if (rank != expectedRank || ringSize != size) {
                        refused = peer + " says it is rank " + rank + " of " + ringSize + ", expected rank "
                                + expectedRank + " of " + size;
                    } else {
                        ByteBuffer reply = ByteBuffer.allocate(8 + SocketRing.TOKEN_BYTES);
                        reply.putInt(SocketRing.MAGIC).put(token).putInt((expectedRank + 1) % size).flip();
                        ChannelIo.writeFully(ch, reply, deadline, peer);
                        return ch;
                    }
                    System.err.println("brisk: ring listener " + address + " refused a connection: " + refused);
                } catch (RingException e) {
                    refused = e.getMessage();
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

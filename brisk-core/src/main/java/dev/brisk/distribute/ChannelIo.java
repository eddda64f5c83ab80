package dev.brisk.distribute;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * Reads and writes on non-blocking socket channels that give up at a deadline: a blocking socket's write has no
 * timeout in Java, so the ring's channels are all non-blocking and every wait is a {@code select} with the time
 * left.
 */
final class ChannelIo {
    private ChannelIo() {
    }

    /** Writes all of {@code b} to {@code ch} before {@code deadline} (System.nanoTime), or throws naming {@code peer}. */
    static void writeFully(SocketChannel ch, ByteBuffer b, long deadline, String peer) throws IOException {
        try (Selector sel = Selector.open()) {
            SelectionKey key = ch.register(sel, SelectionKey.OP_WRITE);
            while (b.hasRemaining()) {
                if (ch.write(b) == 0) {
                    waitFor(sel, key, deadline, "writing to " + peer);
                }
            }
        }
    }

    /** Fills {@code b} from {@code ch} before {@code deadline}, or throws naming {@code peer}. */
    static void readFully(SocketChannel ch, ByteBuffer b, long deadline, String peer) throws IOException {
        try (Selector sel = Selector.open()) {
            SelectionKey key = ch.register(sel, SelectionKey.OP_READ);
            while (b.hasRemaining()) {
                int n = ch.read(b);
                if (n < 0) {
                    throw new RingException(peer + " closed the connection");
                }
                if (n == 0) {
                    waitFor(sel, key, deadline, "reading from " + peer);
                }
            }
        }
    }

    /**
     * The next connection {@code server} (non-blocking, registered with {@code sel} for accepts) receives before
     * {@code deadline}, or null when none came.
     */
    static SocketChannel accept(ServerSocketChannel server, Selector sel, long deadline) throws IOException {
        while (true) {
            SocketChannel ch = server.accept();
            if (ch != null) {
                return ch;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            sel.select(Math.max(1, left / 1_000_000));
            sel.selectedKeys().clear();
        }
    }

    private static void waitFor(Selector sel, SelectionKey key, long deadline, String what) throws IOException {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new RingException("timed out " + what);
        }
        sel.select(Math.max(1, left / 1_000_000));
        sel.selectedKeys().clear();
    }

    /** Milliseconds left until {@code deadline}, at least 1. */
    static long millisLeft(long deadline) {
        return Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
    }
}

package dev.brisk.distribute;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The control channel on loopback: messages both ways, the token check, and timeouts instead of hangs. */
class ControlChannelTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    @Test
    void messagesGoBothWaysAndAStrangerIsRefused() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            byte[] token = RingListener.newToken();
            try (ControlListener listener = ControlListener.open(InetAddress.getLoopbackAddress(), 0, token,
                    TIMEOUT)) {
                // A stranger with the wrong token is closed; the listener keeps waiting for the right one.
                try (SocketChannel stranger = SocketChannel.open(listener.address())) {
                    ByteBuffer hello = ByteBuffer.allocate(4 + SocketRing.TOKEN_BYTES);
                    hello.putInt(ControlChannel.MAGIC).put(RingListener.newToken()).flip();
                    stranger.write(hello);
                    assertNull(listener.accept(Duration.ofMillis(500)), "the stranger was accepted");
                    stranger.socket().setSoTimeout(2000);
                    assertEquals(-1, stranger.socket().getInputStream().read(), "the stranger was not closed");
                }
                CompletableFuture<ControlChannel> worker = CompletableFuture.supplyAsync(() -> {
                    try {
                        return ControlChannel.connect(listener.address(), token, TIMEOUT);
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                try (ControlChannel server = listener.accept(TIMEOUT); ControlChannel client = worker.get()) {
                    assertNull(server.poll(Duration.ofMillis(50)), "a message before one was sent");
                    byte[] big = new byte[3 << 20];
                    big[big.length - 1] = 7;
                    client.send(big);
                    client.send(new byte[0]);
                    assertArrayEquals(big, server.receive());
                    assertEquals(0, server.receive().length);
                    server.send(new byte[] {1, 2, 3});
                    assertArrayEquals(new byte[] {1, 2, 3}, client.receive());
                    // A silent peer: receive gives up after the timeout.
                    RingException e = assertThrows(RingException.class, client::receive);
                    assertTrue(e.getMessage().contains("timed out"), e.getMessage());
                }
            }
        });
    }

    @Test
    void aListenerWithAnotherTokenIsRefusedAndAClosedPeerIsAnError() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            byte[] token = RingListener.newToken();
            try (ControlListener other = ControlListener.open(InetAddress.getLoopbackAddress(), 0,
                    RingListener.newToken(), TIMEOUT)) {
                CompletableFuture<ControlChannel> accepting = CompletableFuture.supplyAsync(() -> {
                    try {
                        return other.accept(Duration.ofSeconds(3));
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                assertThrows(RingException.class, () -> ControlChannel.connect(other.address(), token, TIMEOUT));
                assertNull(accepting.get());
            }
            try (ControlListener listener = ControlListener.open(InetAddress.getLoopbackAddress(), 0, token,
                    TIMEOUT)) {
                CompletableFuture<ControlChannel> accepting = CompletableFuture.supplyAsync(() -> {
                    try {
                        return listener.accept(TIMEOUT);
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                ControlChannel client = ControlChannel.connect(listener.address(), token, TIMEOUT);
                try (ControlChannel server = accepting.get()) {
                    client.close();
                    RingException e = assertThrows(RingException.class, () -> server.poll(TIMEOUT));
                    assertTrue(e.getMessage().contains("closed"), e.getMessage());
                }
            }
        });
    }
}

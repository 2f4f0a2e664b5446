package dev.laneway.channels.telegram;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;

/**
 * A loopback TCP relay in front of a {@link FakeBotApi}'s server that tells the fake the moment a
 * client closes its connection: the JDK {@code HttpServer} never notices a client that went away
 * while a handler holds its request (a {@code getUpdates} the client cancelled). Each connection
 * is named by the port its relayed connection to the server comes from (what the server sees as
 * the client's port).
 *
 * <p>Ordering, which is what makes the notice exact: one thread selects over every connection and,
 * in each round, reports every client that closed before it forwards any bytes. A client's close
 * that happened before another client's request was sent (a poller cancels its poll, then gives its
 * lease up, then another instance polls) is in the kernel before that request, so it is seen in the
 * same round or an earlier one, and reported before the request reaches the server.
 *
 * <p>Concurrency: only the relay thread touches the selector and the channels; {@link #close} wakes
 * it and waits for it to end.
 */
final class ClientRelay implements AutoCloseable {

    private final ServerSocketChannel listener;
    private final Selector selector;
    private final int serverPort;
    private final IntConsumer opened;
    private final IntConsumer clientGone;
    private final Thread thread;
    private volatile boolean closed;

    /** One relayed connection; {@code serverSide} comes from {@code serverSidePort}. */
    private record Pipe(SocketChannel client, SocketChannel serverSide, int serverSidePort) {
        void close() {
            try {
                client.close();
            } catch (IOException ignored) {
                // closing anyway
            }
            try {
                serverSide.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    /** A key's attachment: which pipe, and whether it reads from the client. */
    private record Side(Pipe pipe, boolean fromClient) {
        SocketChannel from() {
            return fromClient ? pipe.client() : pipe.serverSide();
        }

        SocketChannel to() {
            return fromClient ? pipe.serverSide() : pipe.client();
        }
    }

    private ClientRelay(int serverPort, IntConsumer opened, IntConsumer clientGone) throws IOException {
        this.serverPort = serverPort;
        this.opened = opened;
        this.clientGone = clientGone;
        this.selector = Selector.open();
        this.listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        listener.configureBlocking(false);
        listener.register(selector, SelectionKey.OP_ACCEPT);
        this.thread = Thread.ofPlatform().daemon().name("fake-bot-api-relay").start(this::run);
    }

    /**
     * Relays 127.0.0.1:{@link #port} to {@code serverPort}; calls {@code opened} with a connection's
     * port before it carries anything, and {@code clientGone} with it once its client closed it.
     */
    static ClientRelay start(int serverPort, IntConsumer opened, IntConsumer clientGone) throws IOException {
        return new ClientRelay(serverPort, opened, clientGone);
    }

    int port() {
        return listener.socket().getLocalPort();
    }

    private void run() {
        try {
            while (!closed) {
                selector.select();
                List<SelectionKey> ready = new ArrayList<>(selector.selectedKeys());
                selector.selectedKeys().clear();
                List<Side> ended = new ArrayList<>();
                List<Side> sends = new ArrayList<>();
                List<ByteBuffer> data = new ArrayList<>();
                for (SelectionKey key : ready) {
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.isAcceptable()) {
                        accept();
                        continue;
                    }
                    Side side = (Side) key.attachment();
                    ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
                    int read;
                    try {
                        read = side.from().read(buffer);
                    } catch (IOException e) {
                        read = -1;
                    }
                    if (read < 0) {
                        ended.add(side);
                    } else if (read > 0) {
                        sends.add(side);
                        data.add(buffer.flip());
                    }
                }
                for (Side side : ended) {           // every close first: see the class comment
                    if (side.fromClient() && side.pipe().client().isOpen()) {
                        clientGone.accept(side.pipe().serverSidePort());
                    }
                    side.pipe().close();
                }
                for (int i = 0; i < sends.size(); i++) {
                    forward(sends.get(i), data.get(i));
                }
            }
        } catch (IOException e) {
            if (!closed) {
                throw new java.io.UncheckedIOException(e);
            }
        } finally {
            for (SelectionKey key : selector.keys()) {
                if (key.attachment() instanceof Side side) {
                    side.pipe().close();
                }
            }
        }
    }

    private void accept() throws IOException {
        SocketChannel client = listener.accept();
        if (client == null) {
            return;
        }
        SocketChannel serverSide;
        try {
            serverSide = SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), serverPort));
        } catch (IOException refused) {
            client.close();   // the server is away: so is the relay
            return;
        }
        Pipe pipe = new Pipe(client, serverSide, ((InetSocketAddress) serverSide.getLocalAddress()).getPort());
        opened.accept(pipe.serverSidePort());
        client.configureBlocking(false);
        serverSide.configureBlocking(false);
        client.register(selector, SelectionKey.OP_READ, new Side(pipe, true));
        serverSide.register(selector, SelectionKey.OP_READ, new Side(pipe, false));
    }

    /** Writes all of {@code buffer} (small HTTP messages: a full socket buffer clears in moments). */
    private void forward(Side side, ByteBuffer buffer) {
        try {
            while (buffer.hasRemaining() && side.to().isOpen()) {
                if (side.to().write(buffer) == 0) {
                    LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
                }
            }
        } catch (IOException e) {
            if (!side.fromClient() && side.pipe().client().isOpen()) {
                clientGone.accept(side.pipe().serverSidePort());   // the client went away mid-answer
            }
            side.pipe().close();
        }
    }

    @Override
    public void close() {
        closed = true;
        selector.wakeup();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
            listener.close();
            selector.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}

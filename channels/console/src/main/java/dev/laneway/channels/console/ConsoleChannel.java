package dev.laneway.channels.console;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.Route;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.channel.ChannelCapabilities;
import dev.laneway.core.channel.InboundSink;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chat on stdin/stdout as one DM session: each input line is a message from {@code you}, each reply
 * is printed as it arrives. The reader thread only converts lines and hands them to the gateway;
 * it never waits for a run, so typing during a run exercises the queue modes. End of input calls
 * {@code onEndOfInput} (the app then finishes pending work and exits).
 *
 * <p>Concurrency: replies arrive from the outbox's threads; {@code printLock} keeps each reply's
 * lines together.
 */
public final class ConsoleChannel implements ChannelAdapter {

    public static final String NAME = "console";
    private static final Logger log = LoggerFactory.getLogger(ConsoleChannel.class);

    private final InputStream in;
    private final PrintStream out;
    private final InstantSource clock;
    private final Runnable onEndOfInput;
    private final ReentrantLock printLock = new ReentrantLock();
    private final AtomicLong messageIds = new AtomicLong();
    // ids must stay unique across restarts (the journal remembers answered ids): prefix with the start time
    private final String idPrefix;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private volatile Thread reader;

    public ConsoleChannel(InputStream in, PrintStream out, InstantSource clock, Runnable onEndOfInput) {
        this.in = in;
        this.out = out;
        this.clock = clock;
        this.onEndOfInput = onEndOfInput;
        this.idPrefix = Long.toString(clock.millis(), 36) + "-";
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ChannelCapabilities capabilities() {
        return new ChannelCapabilities(1_000_000, false, Duration.ZERO, false);
    }

    @Override
    public void start(InboundSink sink) {
        Thread thread = new Thread(() -> readLoop(sink), "console-reader");
        thread.setDaemon(true);
        reader = thread;
        thread.start();
    }

    private void readLoop(InboundSink sink) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while (!stopped.get() && (line = lines.readLine()) != null) {
                if (!line.isBlank()) {
                    sink.accept(toMessage(line.strip()));
                }
            }
        } catch (IOException e) {
            if (!stopped.get()) {
                log.warn("console input failed: {}", e.toString());
            }
        }
        if (!stopped.get()) {
            onEndOfInput.run();
        }
    }

    InboundMessage toMessage(String text) {
        return InboundMessage.builder(NAME)
                .chatId("console")
                .senderId("you")
                .senderName("You")
                .text(text)
                .platformMessageId(idPrefix + messageIds.incrementAndGet())
                .receivedAt(clock.instant())
                .direct(true)
                .build();
    }

    @Override
    public void send(Route route, String text) {
        printLock.lock();
        try {
            out.println(text);
            out.flush();
        } finally {
            printLock.unlock();
        }
    }

    @Override
    public void stop() {
        stopped.set(true);
        Thread thread = reader;
        if (thread != null) {
            thread.interrupt();
        }
    }
}

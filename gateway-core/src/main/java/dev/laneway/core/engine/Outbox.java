package dev.laneway.core.engine;

import dev.laneway.core.Route;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.channel.TextChunker;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers replies: sequential per chat (a chat's messages never overtake each other), parallel
 * across chats, chunked at the channel's length limit. A send that fails is logged and the next
 * one goes on; pacing and 429 handling belong to the channel adapter. Each reply carries a
 * "still wanted" check, evaluated right before sending, so an aborted run's undelivered text is
 * dropped. An {@link #afterDelivered} action waits in the same queue, so it runs only once every
 * reply queued before it for that chat has been sent (or has failed).
 *
 * <p>Concurrency: {@code lock} guards {@code queues}; a chat has an entry exactly while one drain
 * task owns it, so at most one thread sends to a chat at a time.
 */
final class Outbox {

    private static final Logger log = LoggerFactory.getLogger(Outbox.class);

    private final Executor executor;
    private final Function<String, ChannelAdapter> channels;
    private final GatewayObserver observer;
    private final ReentrantLock lock = new ReentrantLock();
    // chat key -> replies waiting for that chat's drain task
    private final Map<String, ArrayDeque<Outgoing>> queues = new HashMap<>();

    Outbox(Executor executor, Function<String, ChannelAdapter> channels, GatewayObserver observer) {
        this.executor = executor;
        this.channels = channels;
        this.observer = observer;
    }

    /** Queues a reply; returns at once. */
    void send(Route route, String text, BooleanSupplier stillWanted) {
        if (text == null || text.isBlank()) {
            return;
        }
        enqueue(new Reply(route, text, stillWanted));
    }

    private void enqueue(Outgoing outgoing) {
        String chat = outgoing.route().chatKey();
        boolean startDrain;
        lock.lock();
        try {
            ArrayDeque<Outgoing> queue = queues.get(chat);
            startDrain = queue == null;
            if (startDrain) {
                queue = new ArrayDeque<>();
                queues.put(chat, queue);
            }
            queue.addLast(outgoing);
        } finally {
            lock.unlock();
        }
        if (startDrain) {
            executor.execute(() -> drain(chat));
        }
    }

    /** Queues a notice that is always wanted. */
    void send(Route route, String text) {
        send(route, text, () -> true);
    }

    /** True when no reply is waiting or being sent (shutdown waits for this). */
    boolean isIdle() {
        lock.lock();
        try {
            return queues.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** Shows typing in a route's chat; best effort, off the caller's thread. */
    void typing(Route route) {
        ChannelAdapter channel = channels.apply(route.channel());
        if (channel != null && channel.capabilities().typing()) {
            executor.execute(() -> guarded("typing", route, () -> channel.typing(route)));
        }
    }

    /**
     * Tells the channel a run for this route ended (e.g. to remove a progress reaction), in the
     * chat's queue, so it never overtakes the run's last reply.
     */
    void runEnded(Route route) {
        enqueue(new RunEnded(route));
    }

    /**
     * Runs {@code action} on the outbox's thread once everything queued so far for the route's
     * chat is delivered; how "answered" is recorded only after the answer went out.
     */
    void afterDelivered(Route route, Runnable action) {
        enqueue(new AfterDelivered(route, action));
    }

    private void drain(String chat) {
        while (true) {
            Outgoing next;
            lock.lock();
            try {
                ArrayDeque<Outgoing> queue = queues.get(chat);
                next = queue.pollFirst();
                if (next == null) {
                    queues.remove(chat);
                    return;
                }
            } finally {
                lock.unlock();
            }
            try {
                deliver(next);
            } catch (RuntimeException | LinkageError e) {
                // never let one bad reply silence the chat: its queue entry must keep draining
                log.error("delivering a reply to {} chat {} failed", next.route().channel(), next.route().chatId(), e);
            }
        }
    }

    private void deliver(Outgoing outgoing) {
        switch (outgoing) {
            case AfterDelivered after -> after.action.run();
            case RunEnded ended -> {
                ChannelAdapter channel = channel(ended.route);
                if (channel != null) {
                    guarded("runEnded", ended.route, () -> channel.runEnded(ended.route));
                }
            }
            case Reply reply -> {
                ChannelAdapter channel = channel(reply.route);
                if (channel == null) {
                    return;
                }
                for (String chunk : TextChunker.split(reply.text, channel.capabilities().maxTextLength())) {
                    if (!reply.stillWanted.getAsBoolean()) {
                        return;
                    }
                    guarded("send", reply.route, () -> channel.send(reply.route, chunk));
                    observer.sent(reply.route.channel());
                }
            }
        }
    }

    private ChannelAdapter channel(Route route) {
        ChannelAdapter channel = channels.apply(route.channel());
        if (channel == null) {
            log.warn("no channel named {} to send a reply to", route.channel());
        }
        return channel;
    }

    private static void guarded(String what, Route route, ThrowingRunnable action) {
        try {
            action.run();
        } catch (Exception | LinkageError e) {
            log.warn("{} to {} chat {} failed: {}", what, route.channel(), route.chatId(), e.toString());
        }
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    /** What waits in a chat's queue. */
    private sealed interface Outgoing {
        Route route();
    }

    /** A reply to send, unless it is no longer wanted when its turn comes. */
    private record Reply(Route route, String text, BooleanSupplier stillWanted) implements Outgoing {
    }

    /** The end of a run, to report to the channel. */
    private record RunEnded(Route route) implements Outgoing {
    }

    /** An action for when everything before it has been delivered. */
    private record AfterDelivered(Route route, Runnable action) implements Outgoing {
    }
}

package dev.laneway.core.engine;

import dev.laneway.core.Route;
import dev.laneway.core.SessionKey;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.channel.TextChunker;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers replies: sequential per chat (a chat's messages never overtake each other), parallel
 * across chats, chunked at the channel's length limit. A send that fails (after the channel's own
 * retries) is logged at ERROR, counted ({@link GatewayObserver#sendFailed}), and the next one goes
 * on; pacing and 429 handling belong to the channel adapter. The outbox is the only place that
 * chunks: a channel gets texts within its {@code maxTextLength}. Each reply carries a "still
 * wanted" check, evaluated before every chunk, so an aborted run's undelivered text is dropped; an
 * answer also names its session, so {@link #stopAnswers} ({@code /stop}) drops what is left of the
 * session's answers, even of a run that has already ended. An
 * {@link #afterDelivered} action waits in the same queue, so it runs only once every reply queued
 * before it for that chat has been sent (or has failed).
 *
 * <p>Held channels: while the gateway is starting a channel (at boot, and while it retries a
 * channel that failed to start) the channel cannot send, so its chats' queues are parked instead
 * of drained: nothing is attempted, nothing is lost, and {@code afterDelivered} actions behind
 * the parked replies wait too. {@link #release} resumes them, in order. A channel the gateway
 * never {@link #hold held} (tests that start channels themselves) is delivered to at once. At
 * shutdown, before the channels stop, {@link #holdForShutdown} holds every channel for good: what
 * is still queued stays parked (a reply sent to a stopped channel would fail, and the "answered"
 * record behind it would then end a message the user never got), so its messages stay pending in
 * the journal and run again after the restart.
 *
 * <p>Concurrency: {@code lock} guards {@code queues}, {@code held} and {@code closed}. A chat has an entry while
 * it has something queued or a drain task owns it; {@code ChatQueue.draining} says whether a task
 * owns it, so at most one thread sends to a chat at a time, and {@code ChatQueue.sending} is what
 * that task is delivering. A reply's {@code stopped} flag is volatile: set under the lock by
 * {@link #stopAnswers}, read by the sending thread before each chunk.
 */
final class Outbox {

    private static final Logger log = LoggerFactory.getLogger(Outbox.class);

    private final Executor executor;
    private final Function<String, ChannelAdapter> channels;
    private final GatewayObserver observer;
    private final ReentrantLock lock = new ReentrantLock();
    // chat key -> what waits for that chat; guarded by lock
    private final Map<String, ChatQueue> queues = new HashMap<>();
    // names of channels whose sends are held until they have started; guarded by lock
    private final Set<String> held = new HashSet<>();
    // every channel is held for good: the gateway is shutting down; guarded by lock
    private boolean closed;

    Outbox(Executor executor, Function<String, ChannelAdapter> channels, GatewayObserver observer) {
        this.executor = executor;
        this.channels = channels;
        this.observer = observer;
    }

    /** Queues a reply; returns at once. */
    void send(Route route, String text, BooleanSupplier stillWanted) {
        answer(route, null, text, stillWanted);
    }

    /** Queues (part of) an answer of a run of {@code session}, which {@link #stopAnswers} may drop; returns at once. */
    void answer(Route route, SessionKey session, String text, BooleanSupplier stillWanted) {
        if (text == null || text.isBlank()) {
            return;
        }
        enqueue(new Reply(route, text, stillWanted, session));
    }

    /**
     * {@code /stop}: what is left of {@code session}'s answers is not sent: those still queued are
     * removed, and the one being sent stops before its next chunk. Notices are kept.
     */
    void stopAnswers(SessionKey session) {
        lock.lock();
        try {
            for (ChatQueue queue : queues.values()) {
                queue.items.removeIf(item -> item instanceof Reply reply && session.equals(reply.session));
                if (queue.sending instanceof Reply reply && session.equals(reply.session)) {
                    reply.stopped = true;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private void enqueue(Outgoing outgoing) {
        String chat = outgoing.route().chatKey();
        boolean startDrain;
        lock.lock();
        try {
            ChatQueue queue = queues.computeIfAbsent(chat, key -> new ChatQueue(outgoing.route().channel()));
            queue.items.addLast(outgoing);
            startDrain = !queue.draining && !heldLocked(queue.channel);
            queue.draining |= startDrain;
        } finally {
            lock.unlock();
        }
        if (startDrain) {
            executor.execute(() -> drain(chat));
        }
    }

    /** Holds every send to {@code channel} from now on until {@link #release}: the gateway is starting it. */
    void hold(String channel) {
        lock.lock();
        try {
            held.add(channel);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Holds every channel from now on, for good (a {@link #release} no longer resumes anything):
     * the gateway is about to stop its channels. A send under way finishes; nothing after it starts.
     */
    void holdForShutdown() {
        lock.lock();
        try {
            closed = true;
        } finally {
            lock.unlock();
        }
    }

    /** The channel has started: delivers what was held for it, each chat in its order. */
    void release(String channel) {
        List<String> resume = new ArrayList<>();
        lock.lock();
        try {
            if (!held.remove(channel) || closed) {
                return;
            }
            queues.forEach((chat, queue) -> {
                if (queue.channel.equals(channel) && !queue.draining) {
                    queue.draining = true;
                    resume.add(chat);
                }
            });
        } finally {
            lock.unlock();
        }
        resume.forEach(chat -> executor.execute(() -> drain(chat)));
    }

    /** Queues a notice that is always wanted. */
    void send(Route route, String text) {
        send(route, text, () -> true);
    }

    /**
     * True when nothing is being sent and nothing deliverable waits (shutdown waits for this).
     * Replies parked for a channel that has not started do not count: they cannot be delivered,
     * and the messages they answer are not recorded as answered, so they run again after a restart.
     */
    boolean isIdle() {
        lock.lock();
        try {
            return queues.values().stream().noneMatch(queue -> queue.draining);
        } finally {
            lock.unlock();
        }
    }

    /** Replies and actions parked for channels that have not started yet (after a shutdown: all still queued). */
    int heldCount() {
        lock.lock();
        try {
            return queues.values().stream().filter(queue -> closed || !queue.draining)
                    .mapToInt(queue -> queue.items.size()).sum();
        } finally {
            lock.unlock();
        }
    }

    /** Shows typing in a route's chat; best effort, off the caller's thread. */
    void typing(Route route) {
        ChannelAdapter channel = channels.apply(route.channel());
        if (channel != null && channel.capabilities().typing() && !isHeld(route.channel())) {
            executor.execute(() -> guarded("typing", route, () -> channel.typing(route)));
        }
    }

    /**
     * Runs {@code action} on the outbox's thread once everything queued so far for the route's
     * chat is delivered; how "answered" is recorded only after the answer went out.
     */
    void afterDelivered(Route route, Runnable action) {
        enqueue(new AfterDelivered(route, action));
    }

    private boolean isHeld(String channel) {
        lock.lock();
        try {
            return heldLocked(channel);
        } finally {
            lock.unlock();
        }
    }

    /** Whether sends to {@code channel} wait (lock held). */
    private boolean heldLocked(String channel) {
        return closed || held.contains(channel);
    }

    private void drain(String chat) {
        while (true) {
            Outgoing next;
            lock.lock();
            try {
                ChatQueue queue = queues.get(chat);
                queue.sending = null;
                if (queue.items.isEmpty()) {
                    queues.remove(chat);
                    return;
                }
                if (heldLocked(queue.channel)) {
                    queue.draining = false; // parked: release() starts a drain again (never once closed)
                    return;
                }
                next = queue.items.pollFirst();
                queue.sending = next;
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
            case Reply reply -> {
                ChannelAdapter channel = channel(reply.route);
                if (channel == null) {
                    return;
                }
                for (String chunk : TextChunker.split(reply.text, channel.capabilities().maxTextLength())) {
                    if (reply.stopped || !reply.stillWanted.getAsBoolean()) {
                        return;
                    }
                    send(channel, reply.route, chunk);
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

    /**
     * Hands one chunk to the channel. A failure here is final (the adapter already retried what it
     * could): one ERROR line naming channel and chat, never the text, and a metric. The message still
     * counts as answered: its run happened, and running it again after a restart would surprise the user.
     * A send cut off by the shutdown (the channel stopping under it) is not lost when the message's
     * end waits behind it: that stays parked, so the message runs again after the restart (a WARN).
     */
    private void send(ChannelAdapter channel, Route route, String chunk) {
        try {
            channel.send(route, chunk);
            observer.sent(route.channel());
        } catch (Exception | LinkageError e) {
            if (heldBehindShutdown(route)) {
                log.warn("send to {} chat {} was cut off by the shutdown ({}); the message it answers stays pending"
                        + " and is answered after the restart", route.channel(), route.chatId(), e.toString());
                return;
            }
            log.error("send to {} chat {} failed, the reply is lost: {}", route.channel(), route.chatId(), e.toString());
            observer.sendFailed(route.channel());
        }
    }

    /**
     * Whether a failed send's message is kept: the outbox is shut down, so the chat's queue is
     * parked after this send, and a message's end (its answered record, a channel hook) waits in
     * it; that message stays pending in the journal and runs again after the restart.
     */
    private boolean heldBehindShutdown(Route route) {
        lock.lock();
        try {
            ChatQueue queue = queues.get(route.chatKey());
            return closed && queue != null && queue.items.stream().anyMatch(AfterDelivered.class::isInstance);
        } finally {
            lock.unlock();
        }
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

    /**
     * A reply to send, unless it is no longer wanted when its turn comes; {@code session} is set for
     * a run's answer (null for a notice), which {@link #stopAnswers} may stop.
     */
    private static final class Reply implements Outgoing {
        final Route route;
        final String text;
        final BooleanSupplier stillWanted;
        final SessionKey session;
        volatile boolean stopped;

        Reply(Route route, String text, BooleanSupplier stillWanted, SessionKey session) {
            this.route = route;
            this.text = text;
            this.stillWanted = stillWanted;
            this.session = session;
        }

        @Override
        public Route route() {
            return route;
        }
    }

    /** An action for when everything before it has been delivered. */
    private record AfterDelivered(Route route, Runnable action) implements Outgoing {
    }

    /** One chat's queue; fields guarded by the outbox's lock. */
    private static final class ChatQueue {
        final String channel;
        final ArrayDeque<Outgoing> items = new ArrayDeque<>(4); // most chats hold a reply or two
        boolean draining; // a drain task owns this chat now
        Outgoing sending; // what that task is delivering, else null

        ChatQueue(String channel) {
            this.channel = channel;
        }
    }
}

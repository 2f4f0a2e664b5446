package dev.laneway.core.engine;

import dev.laneway.core.lane.BriefLock;
import dev.laneway.core.Route;
import dev.laneway.core.SessionKey;
import dev.laneway.core.channel.Backoff;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.channel.Redactor;
import dev.laneway.core.channel.SendFailure;
import dev.laneway.core.channel.TextChunker;
import dev.laneway.core.time.Scheduler;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers replies: sequential per chat (a chat's messages never overtake each other), parallel
 * across chats, chunked at the channel's length limit. The outbox is the only place that chunks: a
 * channel gets texts within its {@code maxTextLength}. Each reply carries a "still wanted" check,
 * evaluated before every chunk, so an aborted run's undelivered text is dropped; an answer also
 * names its session, so {@link #stopAnswers} ({@code /stop}) drops what is left of the session's
 * answers, even of a run that has already ended. An
 * {@link #afterDelivered} action waits in the same queue, so it runs only once every reply queued
 * before it for that chat has been sent (or has failed).
 *
 * <p>Pacing and retries, written once for every channel. Before each chunk the channel says how
 * long the chat must wait ({@link ChannelAdapter#pace}); the chat then waits on a timer of the
 * injected scheduler, never on a sleeping thread, and other chats go on meanwhile. A 429
 * ({@link SendFailure.Kind#RATE_LIMITED}) sets the chat's "not before" time: nothing (no reply, no
 * typing) goes to that chat until its retry-after has passed, then the same chunk goes again. A
 * 5xx or an unreadable reply ({@link SendFailure.Kind#UNAVAILABLE}) is tried again after a
 * {@link Backoff}. Either is retried at most {@link #MAX_RETRIES} times and for at most
 * {@link #RETRY_BUDGET} of waiting per chunk. A send that got no answer in time may well have been
 * delivered: it is logged as such and not sent again. A reply that still fails, or is refused, is
 * logged at ERROR (channel and chat, never the text), counted ({@link GatewayObserver#sendFailed}),
 * and the rest of it is not sent; when it belongs to a run, the run's {@link Delivery} is marked
 * failed, so the run's messages stay pending in the journal and run again after a restart instead
 * of counting as answered.
 *
 * <p>Held channels: while the gateway is starting a channel (at boot, and while it retries a
 * channel that failed to start) the channel cannot send, so its chats' queues are parked instead
 * of drained: nothing is attempted, nothing is lost, and {@code afterDelivered} actions behind
 * the parked replies wait too. {@link #release} resumes them, in order. A channel the gateway
 * never {@link #hold held} (tests that start channels themselves) is delivered to at once. At
 * shutdown, before the channels stop, {@link #holdForShutdown} holds every channel for good: what
 * is still queued stays parked (a reply sent to a stopped channel would fail, and the "answered"
 * record behind it would then end a message the user never got), so its messages stay pending in
 * the journal and run again after the restart. A send the shutdown cuts off while a message's end
 * still waits behind it is logged at WARN as kept, not as lost: that message stays pending too.
 *
 * <p>Concurrency: the chats are spread over {@link #STRIPES} stripes by their {@link Chat} key, so
 * that sends to different chats rarely wait for each other's lock (docs/decisions.md D91). A
 * stripe's {@code lock} guards its {@code queues} and {@code cooling}; everything about one chat
 * lives in its stripe.
 * {@code held} and {@code closed} concern every chat: they are written only with every stripe's
 * lock held (taken in index order) and read with any one of them held, so a chat sees them change
 * atomically with its own state. A chat has an entry while it has something queued or a drain owns
 * it; {@code ChatQueue.draining} says whether a drain task, or the timer that resumes it after a
 * pacing or backoff wait, owns it, so at most one thread sends to a chat at a time. A chat waiting
 * out a 429 is owned by nobody: the timer that ends its pause starts a new drain. Only a chat's
 * owner touches the head of its queue and a {@link Reply}'s progress; ownership passes under the
 * stripe's lock. A reply's {@code stopped} flag is volatile: set under the lock by
 * {@link #stopAnswers}, read by the chat's owner before each chunk.
 */
final class Outbox {

    /** Platform calls one update of a live answer makes at most before the next update (its last one: all). */
    static final int LIVE_CALLS_PER_UPDATE = 2;
    /** Retries of one chunk before the outbox gives up on it. */
    static final int MAX_RETRIES = 8;
    /** The longest one chunk waits in total (429 pauses and backoffs) before the outbox gives up on it. */
    static final Duration RETRY_BUDGET = Duration.ofMinutes(10);
    /** The wait after a 5xx or an unreadable reply that named no wait of its own. */
    static final Backoff RETRY_BACKOFF = Backoff.exponential(Duration.ofSeconds(1), Duration.ofSeconds(30));
    private static final Logger log = LoggerFactory.getLogger(Outbox.class);

    private final Executor executor;
    private final Scheduler scheduler;
    private final InstantSource clock;
    private final Backoff backoff;
    private final Function<String, ChannelAdapter> channels;
    private final GatewayObserver observer;
    private static final int STRIPE_BITS = 5;
    /** How many stripes the chats are spread over. */
    static final int STRIPES = 1 << STRIPE_BITS;
    private final Stripe[] stripes = new Stripe[STRIPES];
    // names of channels whose sends are held until they have started; written with every stripe locked
    private final Set<String> held = new HashSet<>();
    // every channel is held for good: the gateway is shutting down; written with every stripe locked
    private boolean closed;
    // counts the chats made while their channel was held, in order
    private final AtomicLong heldChats = new AtomicLong();

    Outbox(Executor executor, Scheduler scheduler, InstantSource clock, Function<String, ChannelAdapter> channels,
           GatewayObserver observer) {
        this(executor, scheduler, clock, channels, observer, RETRY_BACKOFF);
    }

    /** With the backoff given (tests fix its jitter). */
    Outbox(Executor executor, Scheduler scheduler, InstantSource clock, Function<String, ChannelAdapter> channels,
           GatewayObserver observer, Backoff backoff) {
        this.executor = executor;
        this.scheduler = scheduler;
        this.clock = clock;
        this.channels = channels;
        this.observer = observer;
        this.backoff = backoff;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Stripe();
        }
    }

    /**
     * The chat's stripe, chosen by the high bits of its spread hash: a stripe's map indexes by the
     * low bits, which would all be equal in it if they had chosen the stripe.
     */
    private Stripe stripe(Chat chat) {
        return stripes[(chat.hashCode() * 0x9E3779B9) >>> (Integer.SIZE - STRIPE_BITS)];
    }

    /** Locks every stripe, in index order (for what concerns every chat: held channels, closing). */
    private void lockAll() {
        for (Stripe stripe : stripes) {
            stripe.lock.lock();
        }
    }

    private void unlockAll() {
        for (int i = STRIPES - 1; i >= 0; i--) {
            stripes[i].lock.unlock();
        }
    }

    /** Queues a notice; returns at once. */
    void send(Route route, String text, BooleanSupplier stillWanted) {
        answer(route, null, text, stillWanted, null);
    }

    /**
     * Queues (part of) an answer of a run of {@code session}, which {@link #stopAnswers} may drop; a
     * failure to deliver it is reported to {@code delivery}. Returns at once.
     */
    void answer(Route route, SessionKey session, String text, BooleanSupplier stillWanted, Delivery delivery) {
        answer(route, session, text, stillWanted, delivery, null);
    }

    /**
     * As {@link #answer(Route, SessionKey, String, BooleanSupplier, Delivery)}, with {@code then} (may be
     * null) run once the answer is done with, exactly as if {@link #afterDelivered} had queued it
     * right behind the answer: it rides in the same queue item, so it costs no item and no step of
     * its own (docs/decisions.md D90).
     */
    void answer(Route route, SessionKey session, String text, BooleanSupplier stillWanted, Delivery delivery,
                Runnable then) {
        if (text == null || text.isBlank()) {
            if (then != null) {
                afterDelivered(route, then);
            }
            return;
        }
        enqueue(new Reply(route, text, stillWanted, session, delivery, then));
    }

    /**
     * Queues an update of a live answer's {@code segment} (docs/behaviour.md §16): when its turn
     * comes, the segment's messages are brought to what it holds then, one platform call at a time,
     * each paced like a chunk. {@code complete}: the segment's last update, which does everything
     * left (an earlier one does at most {@link #LIVE_CALLS_PER_UPDATE} calls and leaves the rest
     * to the next); a failure to deliver it is reported to {@code delivery} (may be null).
     * {@code session} (null: {@link #stopAnswers} leaves it alone) and {@code then} as for an answer.
     */
    void live(Route route, SessionKey session, LiveSegment segment, BooleanSupplier stillWanted, Delivery delivery,
              boolean complete, Runnable then) {
        enqueue(new LiveUpdate(route, session, segment, stillWanted, delivery, complete, then));
    }

    /**
     * {@code /stop}: what is left of {@code session}'s answers is not sent: those still queued are
     * skipped when their turn comes, and the one being sent stops before its next chunk (the chat's
     * owner removes them: it alone touches the head of the queue). Notices are kept.
     */
    void stopAnswers(SessionKey session) {
        for (Stripe stripe : stripes) {
            stripe.lock.lock();
            try {
                for (ChatQueue queue : stripe.queues.values()) {
                    for (Outgoing item = queue.head; item != null; item = item.next) {
                        if (item instanceof Sending sending && session.equals(sending.session)) {
                            sending.stopped = true;
                        }
                    }
                }
            } finally {
                stripe.lock.unlock();
            }
        }
    }

    private void enqueue(Outgoing outgoing) {
        Chat chat = outgoing.chat();
        Stripe stripe = stripe(chat);
        boolean startDrain;
        ChatQueue queue;
        stripe.lock.lock();
        try {
            queue = stripe.queues.get(chat);
            if (queue == null) {
                // a chat held from its start is resumed in the order the held chats came
                queue = new ChatQueue(heldLocked(chat.channel()) ? heldChats.incrementAndGet() : 0);
                stripe.queues.put(chat, queue);
            }
            queue.addLast(outgoing);
            startDrain = !queue.draining && deliverableLocked(stripe, chat);
            queue.draining |= startDrain;
        } finally {
            stripe.lock.unlock();
        }
        if (startDrain) {
            startDrain(chat, queue);
        }
    }

    /** Holds every send to {@code channel} from now on until {@link #release}: the gateway is starting it. */
    void hold(String channel) {
        lockAll();
        try {
            held.add(channel);
        } finally {
            unlockAll();
        }
    }

    /**
     * Holds every channel from now on, for good (a {@link #release} no longer resumes anything):
     * the gateway is about to stop its channels. A send under way finishes; nothing after it starts.
     */
    void holdForShutdown() {
        lockAll();
        try {
            closed = true;
        } finally {
            unlockAll();
        }
    }

    /**
     * The channel has started: delivers what was held for it, each chat in its order, the chats in
     * the order they were first held.
     */
    void release(String channel) {
        List<Map.Entry<Chat, ChatQueue>> resume = new ArrayList<>();
        lockAll();
        try {
            if (!held.remove(channel) || closed) {
                return;
            }
            for (Stripe stripe : stripes) {
                stripe.queues.forEach((chat, queue) -> {
                    if (chat.channel().equals(channel) && !queue.draining && !stripe.cooling.containsKey(chat)) {
                        queue.draining = true;
                        resume.add(Map.entry(chat, queue));
                    }
                });
            }
        } finally {
            unlockAll();
        }
        resume.sort(Comparator.comparingLong(entry -> entry.getValue().heldOrder));
        resume.forEach(entry -> startDrain(entry.getKey()));
    }

    /** Queues a notice that is always wanted. */
    void send(Route route, String text) {
        send(route, text, () -> true);
    }

    /**
     * True when nothing is being sent and nothing deliverable waits (shutdown waits for this); a
     * chat pacing, backing off or waiting out a 429 is not idle. Replies parked for a channel that
     * has not started do not count: they cannot be delivered, and the messages they answer are not
     * recorded as answered, so they run again after a restart.
     */
    boolean isIdle() {
        lockAll(); // one moment for every chat
        try {
            for (Stripe stripe : stripes) {
                for (Map.Entry<Chat, ChatQueue> entry : stripe.queues.entrySet()) {
                    if (entry.getValue().draining
                            || (stripe.cooling.containsKey(entry.getKey()) && !heldLocked(entry.getKey().channel()))) {
                        return false;
                    }
                }
            }
            return true;
        } finally {
            unlockAll();
        }
    }

    /** Replies and actions parked for channels that have not started yet (after a shutdown: all still queued). */
    int heldCount() {
        lockAll();
        try {
            int count = 0;
            for (Stripe stripe : stripes) {
                for (Map.Entry<Chat, ChatQueue> entry : stripe.queues.entrySet()) {
                    ChatQueue queue = entry.getValue();
                    if (closed || (!queue.draining && held.contains(entry.getKey().channel()))) {
                        count += queue.items();
                    }
                }
            }
            return count;
        } finally {
            unlockAll();
        }
    }

    /**
     * Shows typing in a route's chat; best effort, off the caller's thread. Skipped while the chat
     * waits out a 429 (more requests would only prolong it); a 429 for the typing action itself
     * pauses the chat like one for a message.
     */
    void typing(Route route) {
        ChannelAdapter channel = channels.apply(route.channel());
        if (channel == null || !channel.capabilities().typing() || !isDeliverable(route)) {
            return;
        }
        executor.execute(() -> {
            try {
                channel.typing(route);
            } catch (Throwable e) {
                Fatal.rethrowIfFatal(e);
                SendFailure failure = failureOf(e);
                if (failure.kind() == SendFailure.Kind.RATE_LIMITED) {
                    coolDown(Chat.of(route), failure.retryAfter(), false);
                }
                log.warn("typing to {} chat {} failed: {}", route.channel(), route.chatId(), failure.getMessage());
            }
        });
    }

    /**
     * Runs {@code action} on the outbox's thread once everything queued so far for the route's
     * chat is delivered; how "answered" is recorded only after the answer went out.
     */
    void afterDelivered(Route route, Runnable action) {
        enqueue(new AfterDelivered(route, action));
    }

    private boolean isDeliverable(Route route) {
        Chat chat = Chat.of(route);
        Stripe stripe = stripe(chat);
        stripe.lock.lock();
        try {
            return deliverableLocked(stripe, chat);
        } finally {
            stripe.lock.unlock();
        }
    }

    /** Whether sends to {@code channel} wait (a stripe's lock held). */
    private boolean heldLocked(String channel) {
        return closed || (!held.isEmpty() && held.contains(channel));
    }

    /** Whether something may go to {@code chat} now: not held, not waiting out a 429 (its stripe's lock held). */
    private boolean deliverableLocked(Stripe stripe, Chat chat) {
        return !heldLocked(chat.channel()) && (stripe.cooling.isEmpty() || !stripe.cooling.containsKey(chat));
    }

    /** Runs a drain for a chat its caller owns; a refusing executor (stopping) leaves the chat parked. */
    private void startDrain(Chat chat) {
        startDrain(chat, null);
    }

    /** As {@link #startDrain(Chat)}, handing over the chat's queue when the caller has it (null: looked up). */
    private void startDrain(Chat chat, ChatQueue owned) {
        try {
            executor.execute(() -> drain(chat, owned));
        } catch (RejectedExecutionException e) {
            Stripe stripe = stripe(chat);
            stripe.lock.lock();
            try {
                ChatQueue queue = stripe.queues.get(chat);
                if (queue != null) {
                    queue.draining = false;
                }
            } finally {
                stripe.lock.unlock();
            }
            log.debug("outbox: no drain for chat {}: the executor is stopping", chat);
        }
    }

    private void drain(Chat chat, ChatQueue owned) {
        Stripe stripe = stripe(chat);
        boolean headDone = false; // the head was delivered: it leaves the queue in the next locked step
        // looked up once: while this drain owns the chat, its queue stays in the map (the owner alone removes it)
        ChatQueue queue = owned;
        while (true) {
            Outgoing next;
            stripe.lock.lock();
            try {
                if (queue == null) {
                    queue = stripe.queues.get(chat);
                }
                if (headDone) {
                    queue.removeHead();
                    headDone = false;
                }
                if (queue.head == null) {
                    stripe.queues.remove(chat);
                    return;
                }
                if (!deliverableLocked(stripe, chat)) {
                    // parked: release() or the end of the 429 pause starts a drain again (never once closed)
                    queue.draining = false;
                    return;
                }
                next = queue.head; // stays at the head until it is done: a wait resumes it
            } finally {
                stripe.lock.unlock();
            }
            Sending reply = next instanceof Sending r && r.then != null ? r : null;
            Step step = reply != null && reply.sent ? runContained(reply.then, reply.route) : deliverContained(next);
            switch (step) {
                case Step.Done done -> {
                    if (reply != null && !reply.sent) {
                        reply.sent = true; // its action is next, after a locked step, as an item behind it would be
                    } else {
                        headDone = true;
                    }
                }
                case Step.Wait wait -> {
                    if (!schedule(wait.delay(), () -> startDrain(chat))) { // the chat stays owned meanwhile
                        park(chat);
                    }
                    return;
                }
                case Step.Pause pause -> {
                    coolDown(chat, pause.delay(), true);
                    return;
                }
            }
        }
    }

    /** Schedules {@code task}; false when the scheduler refused it (the gateway is stopping). */
    private boolean schedule(Duration delay, Runnable task) {
        try {
            scheduler.schedule(delay, task);
            return true;
        } catch (RejectedExecutionException e) {
            log.debug("outbox: a wait could not be scheduled: the scheduler is stopping");
            return false;
        }
    }

    /** The chat's owner gives it up without a timer to resume it: what is queued stays parked. */
    private void park(Chat chat) {
        Stripe stripe = stripe(chat);
        stripe.lock.lock();
        try {
            stripe.queues.get(chat).draining = false;
        } finally {
            stripe.lock.unlock();
        }
    }

    /**
     * Pauses {@code chat} after a 429: nothing goes to it until {@code wait} has passed (a longer
     * pause already set wins). {@code owner}: the caller is the chat's drain, which gives the chat
     * up; the timer that ends the pause starts a new drain.
     */
    private void coolDown(Chat chat, Duration wait, boolean owner) {
        Instant until = clock.instant().plus(wait);
        Stripe stripe = stripe(chat);
        boolean longest;
        stripe.lock.lock();
        try {
            if (owner) {
                stripe.queues.get(chat).draining = false;
            }
            Instant current = stripe.cooling.get(chat);
            longest = current == null || until.isAfter(current);
            if (longest) {
                stripe.cooling.put(chat, until);
            }
        } finally {
            stripe.lock.unlock();
        }
        if (longest && !schedule(wait, () -> endCooling(chat, until))) {
            stripe.lock.lock();
            try {
                stripe.cooling.remove(chat, until); // no timer would ever end it
            } finally {
                stripe.lock.unlock();
            }
        }
    }

    private void endCooling(Chat chat, Instant until) {
        Stripe stripe = stripe(chat);
        boolean resume = false;
        stripe.lock.lock();
        try {
            if (!until.equals(stripe.cooling.get(chat))) {
                return; // a longer pause replaced this one; its own timer ends it
            }
            stripe.cooling.remove(chat);
            ChatQueue queue = stripe.queues.get(chat);
            if (queue != null && !queue.draining && !heldLocked(chat.channel())) {
                queue.draining = true;
                resume = true;
            }
        } finally {
            stripe.lock.unlock();
        }
        if (resume) {
            startDrain(chat);
        }
    }

    /** Runs the action that rides behind a reply, contained as a queued action is. */
    private Step runContained(Runnable action, Route route) {
        try {
            action.run();
        } catch (Throwable e) {
            Fatal.rethrowIfFatal(e);
            log.error("delivering a reply to {} chat {} failed", route.channel(), route.chatId(), e);
        }
        return Step.DONE;
    }

    private Step deliverContained(Outgoing outgoing) {
        try {
            return deliver(outgoing);
        } catch (Throwable e) {
            Fatal.rethrowIfFatal(e);
            // never let one bad reply silence the chat: its queue entry must keep draining
            log.error("delivering a reply to {} chat {} failed", outgoing.route().channel(), outgoing.route().chatId(), e);
            return Step.DONE;
        }
    }

    private Step deliver(Outgoing outgoing) {
        return switch (outgoing) {
            case AfterDelivered after -> {
                after.action.run();
                yield Step.DONE;
            }
            case Reply reply -> deliverReply(reply);
            case LiveUpdate live -> deliverLive(live);
        };
    }

    /** Sends the reply's chunks from where it stopped; a {@link Step.Wait} or {@link Step.Pause} resumes it later. */
    private Step deliverReply(Reply reply) {
        ChannelAdapter channel = channel(reply.route);
        if (channel == null) {
            return Step.DONE;
        }
        if (reply.chunks == null) {
            reply.chunks = TextChunker.split(reply.text, channel.capabilities().maxTextLength());
        }
        while (reply.next < reply.chunks.size()) {
            if (reply.stopped || !reply.stillWanted.getAsBoolean()) {
                return Step.DONE;
            }
            if (!reply.paced) {
                reply.paced = true; // the channel booked this chunk's slot: it is not asked again
                Duration wait = pace(channel, reply.route);
                if (wait.isPositive()) {
                    return new Step.Wait(wait);
                }
            }
            Step failed = send(channel, reply);
            if (failed != null) {
                return failed;
            }
        }
        return Step.DONE;
    }

    /**
     * Brings a live answer's messages to what its segment holds now, one call at a time, each paced;
     * a {@link Step.Wait} or {@link Step.Pause} resumes it later. An edit that is refused or rate
     * limited degrades the segment (the rest goes as new messages once the reply is complete); a
     * 429 also pauses the chat as for a chunk.
     */
    private Step deliverLive(LiveUpdate live) {
        ChannelAdapter channel = channel(live.route);
        if (channel == null) {
            return Step.DONE;
        }
        if (!live.taken) {
            live.taken = true;
            live.segment.taken(clock.instant()); // a change from now on arranges the next update
        }
        int limit = channel.capabilities().maxTextLength();
        while (true) {
            if (live.stopped || !live.stillWanted.getAsBoolean()) {
                return Step.DONE;
            }
            if (!live.complete && live.calls >= LIVE_CALLS_PER_UPDATE) {
                return Step.DONE;
            }
            LiveSegment.Op op = live.segment.next(limit);
            if (op == null) {
                if (live.complete) {
                    live.segment.shownWhole();
                    live.segment.record(); // no mark after a crash is due any more
                }
                return Step.DONE;
            }
            if (!live.paced) {
                live.paced = true;
                Duration wait = pace(channel, live.route);
                if (wait.isPositive()) {
                    return new Step.Wait(wait);
                }
            }
            Step failed = apply(channel, live, op);
            live.segment.record(); // the journal keeps what the message shows, for a crash (docs/behaviour.md §16.3)
            if (failed != null) {
                return failed;
            }
        }
    }

    /** Makes one platform call of a live answer. Null: on to the next; else what the drain does next. */
    private Step apply(ChannelAdapter channel, LiveUpdate live, LiveSegment.Op op) {
        Route route = live.route;
        try {
            switch (op) {
                case LiveSegment.Op.Post post -> {
                    String id = channel.post(route, post.text());
                    live.segment.done(post, id, id != null && channel.draft(id), id != null && channel.finishes(id));
                }
                case LiveSegment.Op.Keep keep -> live.segment.done(keep, channel.keep(route, keep.id(), keep.text()));
                case LiveSegment.Op.Edit edit -> {
                    channel.edit(route, edit.id(), edit.text());
                    live.segment.done(edit, edit.id());
                }
            }
            observer.sent(route.channel());
            live.callDone();
            return null;
        } catch (Throwable e) {
            Fatal.rethrowIfFatal(e);
            SendFailure failure = failureOf(e);
            if (failure.kind() == SendFailure.Kind.OUTCOME_UNKNOWN) {
                log.warn("{} to {} chat {} got no answer in time ({}); it may well have gone through, so it is not"
                        + " made again", op instanceof LiveSegment.Op.Edit ? "an edit" : "a send", route.channel(),
                        route.chatId(), failure.getMessage());
                live.segment.done(op, null);
                live.callDone();
                return null;
            }
            if (op instanceof LiveSegment.Op.Edit && failure.kind() != SendFailure.Kind.UNAVAILABLE) {
                // refused or rate limited: no more edits of this answer; the rest goes as new messages
                live.segment.degrade();
                log.info("an edit of a live answer in {} chat {} failed ({}); the rest of the answer goes as new"
                        + " messages", route.channel(), route.chatId(), failure.getMessage());
                if (failure.kind() == SendFailure.Kind.REFUSED) {
                    live.paced = false; // the slot was spent on the refused edit
                    return null;
                }
            }
            if (!live.complete && failure.kind() == SendFailure.Kind.REFUSED) {
                log.warn("a live answer's update to {} chat {} failed ({}); its last update tries again",
                        route.channel(), route.chatId(), failure.getMessage());
                return Step.DONE;
            }
            return failure.kind() == SendFailure.Kind.REFUSED ? giveUp(live, failure) : retryOrGiveUp(live, failure);
        }
    }

    private static Duration pace(ChannelAdapter channel, Route route) {
        try {
            Duration wait = channel.pace(route);
            return wait == null ? Duration.ZERO : wait;
        } catch (Throwable e) {
            Fatal.rethrowIfFatal(e);
            log.warn("pacing for {} chat {} failed; sending without waiting: {}", route.channel(), route.chatId(),
                    e.toString());
            return Duration.ZERO;
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
     * Hands the reply's next chunk to the channel, once. Null when it went (or may have gone: no
     * answer in time); else what the drain does next: wait and send it again, or go on without the
     * rest of the reply.
     */
    private Step send(ChannelAdapter channel, Reply reply) {
        Route route = reply.route;
        try {
            channel.send(route, reply.chunks.get(reply.next));
            observer.sent(route.channel());
            reply.chunkSent();
            return null;
        } catch (Throwable e) {
            Fatal.rethrowIfFatal(e);
            SendFailure failure = failureOf(e);
            return switch (failure.kind()) {
                case OUTCOME_UNKNOWN -> {
                    log.warn("send to {} chat {} got no answer in time ({}); it may well have been delivered, so it is"
                            + " not sent again", route.channel(), route.chatId(), failure.getMessage());
                    observer.sent(route.channel());
                    reply.chunkSent();
                    yield null;
                }
                case REFUSED -> giveUp(reply, failure);
                case RATE_LIMITED, UNAVAILABLE -> retryOrGiveUp(reply, failure);
            };
        }
    }

    private Step retryOrGiveUp(Sending reply, SendFailure failure) {
        Duration wait = failure.retryAfter() != null ? failure.retryAfter() : backoff.delay(reply.retries + 1);
        if (reply.retries >= MAX_RETRIES || reply.waited.plus(wait).compareTo(RETRY_BUDGET) > 0) {
            return giveUp(reply, failure);
        }
        reply.retries++;
        reply.waited = reply.waited.plus(wait);
        Route route = reply.route;
        if (failure.kind() == SendFailure.Kind.RATE_LIMITED) {
            log.info("{} chat {} is rate limited; nothing goes to it for {} ms, as the platform asks, then the reply"
                    + " is sent again", route.channel(), route.chatId(), wait.toMillis());
            return new Step.Pause(wait);
        }
        log.warn("send to {} chat {} failed ({}); trying again in {} ms (retry {} of at most {})", route.channel(),
                route.chatId(), failure.getMessage(), wait.toMillis(), reply.retries, MAX_RETRIES);
        return new Step.Wait(wait);
    }

    /**
     * The chunk failed for good: one ERROR line naming channel and chat, never the text, and a
     * metric; the rest of the reply is not sent. A run's reply marks its {@link Delivery} failed,
     * so the messages it answers stay pending and run again after a restart.
     */
    private Step giveUp(Sending reply, SendFailure failure) {
        Route route = reply.route;
        if (heldBehindShutdown(route)) {
            log.warn("send to {} chat {} was cut off by the shutdown ({}); the message it answers stays pending"
                    + " and is answered after the restart", route.channel(), route.chatId(), failure.getMessage());
            return Step.DONE;
        }
        String tries = reply.retries == 0 ? "" : " after " + (reply.retries + 1) + " attempts";
        if (reply.delivery != null) {
            reply.delivery.failed();
            log.error("send to {} chat {} failed{}: {}; the rest of the reply is not sent, and a message it answers"
                    + " stays pending unless an earlier reply answered it: it runs again after a restart",
                    route.channel(), route.chatId(), tries, failure.getMessage());
        } else {
            log.error("send to {} chat {} failed{}: {}; the notice is lost", route.channel(), route.chatId(), tries,
                    failure.getMessage());
        }
        observer.sendFailed(route.channel()); // after the line: whoever watches the count finds it logged
        return Step.DONE;
    }

    /**
     * Whether a failed send's message is kept: the outbox is shut down, so the chat's queue is
     * parked after this send, and a message's end (its answered record, a channel hook) waits in
     * it; that message stays pending in the journal and runs again after the restart.
     */
    private boolean heldBehindShutdown(Route route) {
        Chat chat = Chat.of(route);
        Stripe stripe = stripe(chat);
        stripe.lock.lock();
        try {
            ChatQueue queue = stripe.queues.get(chat);
            if (!closed || queue == null) {
                return false;
            }
            for (Outgoing item = queue.head; item != null; item = item.next) {
                if (item instanceof AfterDelivered || (item instanceof Sending reply && reply.then != null)) {
                    return true;
                }
            }
            return false;
        } finally {
            stripe.lock.unlock();
        }
    }

    /** A channel's failure as a {@link SendFailure} (channels redact what they throw; the SPI asks them to). */
    private static SendFailure failureOf(Throwable e) {
        return SendFailure.of(e, Redactor.NONE);
    }

    /** What the drain does after delivering the head of a chat's queue. */
    private sealed interface Step {
        Done DONE = new Done();

        /** The head is done with (delivered, dropped or given up): on to the next item. */
        record Done() implements Step {
        }

        /** Wait {@code delay} (pacing, backoff) still owning the chat, then deliver the head again. */
        record Wait(Duration delay) implements Step {
        }

        /** A 429: the chat is paused for {@code delay}, then the head is delivered again. */
        record Pause(Duration delay) implements Step {
        }
    }

    /** What waits in a chat's queue: a link of it (each is queued once, in one chat). */
    private abstract static sealed class Outgoing permits Sending, AfterDelivered {
        final Route route;
        final Chat chat; // the chat it goes to, its queue's key
        Outgoing next;   // the one behind it in its chat's queue; guarded by the stripe's lock

        Outgoing(Route route) {
            this.route = route;
            this.chat = Chat.of(route);
        }

        Route route() {
            return route;
        }

        Chat chat() {
            return chat;
        }
    }

    /**
     * A chat (channel, account, chat id): the key of its queue, its 429 pause and its stripe. Made of
     * the route's own strings, whose hash codes are cached, with its own hash computed once: no key
     * text is built per send.
     */
    private static final class Chat {
        private final String channel;
        private final String account;
        private final String chatId;
        private final int hash;

        private Chat(String channel, String account, String chatId) {
            this.channel = channel;
            this.account = account;
            this.chatId = chatId;
            this.hash = (channel.hashCode() * 31 + account.hashCode()) * 31 + chatId.hashCode();
        }

        static Chat of(Route route) {
            return new Chat(route.channel(), route.account(), route.chatId());
        }

        String channel() {
            return channel;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Chat that && hash == that.hash && chatId.equals(that.chatId)
                    && channel.equals(that.channel) && account.equals(that.account);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public String toString() {
            return channel + ":" + chatId;
        }
    }

    /**
     * Something to send (a reply, or an update of a live answer), unless it is no longer wanted
     * when its turn comes. The progress fields are touched only by the chat's owner.
     */
    private abstract static sealed class Sending extends Outgoing permits Reply, LiveUpdate {
        final BooleanSupplier stillWanted;
        final SessionKey session; // the run's session for an answer, which /stop may stop; null for a notice
        final Delivery delivery; // null for a notice
        final Runnable then;      // runs once it is done with, as an action queued right behind it; or null
        volatile boolean stopped; // /stop: nothing more of it is sent
        boolean sent;            // done with (sent, dropped or given up): {@code then} is what is left of it
        boolean paced;           // the channel booked the next call's slot
        int retries;             // of the next call
        Duration waited = Duration.ZERO; // by the next call, in retry waits

        Sending(Route route, BooleanSupplier stillWanted, SessionKey session, Delivery delivery, Runnable then) {
            super(route);
            this.stillWanted = stillWanted;
            this.session = session;
            this.delivery = delivery;
            this.then = then;
        }

        /** The next call starts afresh: its slot is not booked, it has not been retried. */
        void callDone() {
            paced = false;
            retries = 0;
            waited = Duration.ZERO;
        }
    }

    /** A reply to send, in chunks. */
    private static final class Reply extends Sending {
        final String text;
        List<String> chunks;     // split when its turn first comes
        int next;                // the chunk to send next

        Reply(Route route, String text, BooleanSupplier stillWanted, SessionKey session, Delivery delivery,
              Runnable then) {
            super(route, stillWanted, session, delivery, then);
            this.text = text;
        }

        void chunkSent() {
            next++;
            callDone();
        }
    }

    /** An update of a live answer (docs/behaviour.md §16). */
    private static final class LiveUpdate extends Sending {
        final LiveSegment segment;
        final boolean complete; // the segment's last update: it does everything left
        boolean taken;          // its turn came: the segment knows
        int calls;              // platform calls made

        LiveUpdate(Route route, SessionKey session, LiveSegment segment, BooleanSupplier stillWanted,
                   Delivery delivery, boolean complete, Runnable then) {
            super(route, stillWanted, session, delivery, then);
            this.segment = segment;
            this.complete = complete;
        }

        @Override
        void callDone() {
            super.callDone();
            calls++;
        }
    }

    /** An action for when everything before it has been delivered. */
    private static final class AfterDelivered extends Outgoing {
        final Runnable action;

        AfterDelivered(Route route, Runnable action) {
            super(route);
            this.action = action;
        }
    }

    /** One chat's queue, linked through its items; fields guarded by its stripe's lock. */
    private static final class ChatQueue {
        final long heldOrder; // when held from its start: its place among held chats (release resumes them so); else 0
        boolean draining; // a drain task (or the timer resuming it) owns this chat now
        Outgoing head;    // the next to deliver; stays here while it is delivered
        Outgoing tail;

        ChatQueue(long heldOrder) {
            this.heldOrder = heldOrder;
        }

        void addLast(Outgoing item) {
            if (tail == null) {
                head = item;
            } else {
                tail.next = item;
            }
            tail = item;
        }

        void removeHead() {
            Outgoing done = head;
            head = done.next;
            done.next = null;
            if (head == null) {
                tail = null;
            }
        }

        /** Replies and actions waiting (an action riding behind a reply counts as one). */
        int items() {
            int count = 0;
            for (Outgoing item = head; item != null; item = item.next) {
                count += item instanceof Sending reply && reply.then != null && !reply.sent ? 2 : 1;
            }
            return count;
        }
    }

    /** Some of the chats, with their lock. */
    private static final class Stripe {
        final ReentrantLock lock = new BriefLock();
        // chat -> what waits for that chat; guarded by lock
        final Map<Chat, ChatQueue> queues = new HashMap<>();
        // chat -> the end of the 429 pause it waits out (removed by the timer that ends it); guarded by lock
        final Map<Chat, Instant> cooling = new HashMap<>();
    }
}

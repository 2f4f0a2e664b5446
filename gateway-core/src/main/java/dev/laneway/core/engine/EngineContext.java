package dev.laneway.core.engine;

import dev.laneway.core.Disposition;
import dev.laneway.core.Route;
import dev.laneway.core.SessionKey;
import dev.laneway.core.agent.Agent;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.channel.ChannelCapabilities;
import dev.laneway.core.lane.Lanes;
import dev.laneway.core.store.MessageJournal;
import dev.laneway.core.time.Scheduler;
import java.time.Duration;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every {@link SessionQueue} shares: settings, time, the executor, lanes, outbox, admission,
 * the agent, the channels and the session registry. Immutable references to thread-safe services.
 * The channels' capabilities are read once, here, so the engine never calls into a channel while
 * it holds a session lock.
 */
final class EngineContext {

    private static final Logger log = LoggerFactory.getLogger(EngineContext.class);

    final GatewaySettings settings;
    final InstantSource clock;
    final Scheduler scheduler;
    final Executor executor;
    final Lanes lanes;
    final Outbox outbox;
    final Admission admission;
    final Function<SessionKey, Agent> agents;
    private final Map<String, ChannelAdapter> channels;
    // channel name -> its capabilities, read once; a channel whose capabilities could not be read is missing
    private final Map<String, ChannelCapabilities> capabilities;
    final GatewayObserver observer;
    final MessageJournal journal;
    // the journal's end-of-message records, kept and retried while the journal refuses them
    final JournalRecords journalRecords;
    /** Set on shutdown: no new run starts; unfinished messages stay pending in the journal. */
    volatile boolean stopping;
    private final AtomicLong runIds = new AtomicLong();
    // session key -> its queue, only while the session is not idle
    final Map<SessionKey, SessionQueue> sessions = new ConcurrentHashMap<>();
    final IdleSignal idle = new IdleSignal();
    // settles decided under a session lock whose effects (journal record, outbox task) have not run yet
    private final AtomicInteger settling = new AtomicInteger();

    EngineContext(GatewaySettings settings, InstantSource clock, Scheduler scheduler, Executor executor,
                  Lanes lanes, Outbox outbox, Admission admission, Function<SessionKey, Agent> agents,
                  Map<String, ChannelAdapter> channels, GatewayObserver observer,
                  MessageJournal journal) {
        this.settings = settings;
        this.clock = clock;
        this.scheduler = scheduler;
        this.executor = executor;
        this.lanes = lanes;
        this.outbox = outbox;
        this.admission = admission;
        this.agents = agents;
        this.channels = Map.copyOf(channels);
        this.observer = observer;
        this.journal = journal;
        this.journalRecords = new JournalRecords(journal, scheduler);
        Map<String, ChannelCapabilities> read = new HashMap<>();
        this.channels.forEach((name, channel) -> {
            try {
                read.put(name, Objects.requireNonNull(channel.capabilities(), "capabilities"));
            } catch (RuntimeException | LinkageError e) {
                log.error("channel {} could not say what it can do; it gets no typing and no message hooks: {}",
                        name, e.toString());
            }
        });
        this.capabilities = Map.copyOf(read);
    }

    String nextRunId() {
        return "r" + runIds.incrementAndGet();
    }

    /**
     * Ends a ticket: records its disposition once and gives back its admission slot now; what follows
     * from it outside the engine (the journal record, listeners, the channel's settled hook) is added
     * to {@code fx}, so a caller holding a session lock makes no foreign call, and a notice the caller
     * queued into {@code fx} before this call reaches the chat's outbox before the message's answered
     * record and settled hook: the user is told before the message counts as ended.
     */
    void settle(Ticket ticket, Disposition disposition, Effects fx) {
        settle(ticket, disposition, null, fx);
    }

    /**
     * As {@link #settle(Ticket, Disposition, Effects)} for a message a run answered: if the outbox
     * could not deliver one of the run's replies ({@code delivery}), the message is not recorded as
     * answered but stays pending, and runs again after a restart.
     */
    void settle(Ticket ticket, Disposition disposition, Delivery delivery, Effects fx) {
        if (!ticket.settle(disposition)) {
            log.error("bug: message {} already ended as {}, not recording {}", ticket.seq(), ticket.disposition(), disposition);
            return;
        }
        if (ticket.admitted()) {
            admission.release();
        }
        settling.incrementAndGet();
        fx.add(() -> {
            try {
                settled(ticket, disposition, delivery);
            } finally {
                if (settling.decrementAndGet() == 0) {
                    idle.signal(); // waiters only care about the last one
                }
            }
        });
    }

    /**
     * Whether a settle is decided but its effects have not run: its session may already look idle
     * while its answered record is not yet queued in the outbox. Shutdown waits for none to be left,
     * so it never closes the outbox between the two (which would keep an answered message pending
     * and answer it again after the restart).
     */
    boolean settling() {
        return settling.get() > 0;
    }

    /** As {@link #settle(Ticket, Disposition, Effects)}, for a caller holding no lock: the effects run at once. */
    void settle(Ticket ticket, Disposition disposition) {
        Effects fx = new Effects();
        settle(ticket, disposition, fx);
        fx.run();
    }

    private void settled(Ticket ticket, Disposition disposition, Delivery delivery) {
        if (answered(disposition)) {
            // "answered" only once the answer went out: a crash before that runs the message again,
            // and so does a restart after the outbox gave up on the answer
            outbox.afterDelivered(ticket.message().route(), () -> recordAnswered(ticket, delivery));
        } else {
            recordOnce(ticket, false);
        }
        observer.recorded(ticket.message(), disposition); // ObserverFanout guards it
        if (ticket.announced()) { // a message refused before it was accepted was never announced
            messageHook(ticket.message().route(), MessageHook.SETTLED);
        }
    }

    /**
     * Records {@code tickets} as answered once everything queued so far for {@code route}'s chat is
     * delivered (the reply that answered them), unless {@code stillWanted} then says the reply was
     * dropped or the outbox gave up on one of the run's replies ({@code delivery}): a run's messages and the steers it answered, while the run goes on (see
     * {@link dev.laneway.core.agent.RunEvents#reply(String, java.util.List)}). Each message's record
     * is written once: its settle later writes nothing more.
     */
    void answeredBeforeEnd(Route route, List<Ticket> tickets, BooleanSupplier stillWanted, Delivery delivery) {
        if (tickets.isEmpty()) {
            return;
        }
        outbox.afterDelivered(route, () -> {
            if (stillWanted.getAsBoolean()) {
                tickets.forEach(ticket -> recordAnswered(ticket, delivery));
            }
        });
    }

    /**
     * Tells the message's channel it was accepted (after journaling), in the chat's outbox order;
     * from then on the channel is also told when it ends.
     */
    void accepted(Ticket ticket) {
        ticket.announce();
        messageHook(ticket.message().route(), MessageHook.ACCEPTED);
    }

    /** Queues {@code hook} behind what the chat's outbox holds, so it never overtakes a reply. */
    private void messageHook(Route route, MessageHook hook) {
        ChannelAdapter channel = channels.get(route.channel());
        ChannelCapabilities can = capabilities.get(route.channel());
        if (channel == null || can == null || !can.tracksMessages()) {
            return; // the channel wants no hooks: no outbox work for them
        }
        outbox.afterDelivered(route, () -> {
            try {
                if (hook == MessageHook.ACCEPTED) {
                    channel.accepted(route);
                } else {
                    channel.settled(route);
                }
            } catch (Exception | LinkageError e) {
                log.warn("{} hook of channel {} failed for message {}: {}", hook.name().toLowerCase(java.util.Locale.ROOT),
                        route.channel(), route.replyToMessageId(), e.toString());
            }
        });
    }

    private enum MessageHook { ACCEPTED, SETTLED }

    /**
     * Records a message a run answered, unless the outbox gave up on one of the run's replies
     * ({@code delivery}): then it stays pending and runs again after a restart, unless an earlier
     * reply of the run that did go out already answered it (docs/decisions.md D30).
     */
    private void recordAnswered(Ticket ticket, Delivery delivery) {
        if (delivery != null && delivery.hasFailed()) {
            if (ticket.journalRecordClaimed()) {
                return; // an earlier reply of the run answered it and was recorded: it stays answered
            }
            log.warn("message {} stays pending: its answer could not be delivered; it runs again after a restart",
                    ticket.seq());
            return;
        }
        recordOnce(ticket, true);
    }

    /** Writes the message's end to the journal, unless its record was written already (answered before its run ended). */
    private void recordOnce(Ticket ticket, boolean answered) {
        if (ticket.claimJournalRecord()) {
            journalRecords.record(ticket.seq(), answered);
        }
    }

    private static boolean answered(Disposition disposition) {
        return disposition == Disposition.RAN || disposition == Disposition.COLLECTED || disposition == Disposition.STEERED;
    }

    /** Settles every message of {@code item} (see {@link #settle(Ticket, Disposition, Effects)}). */
    void settleAll(QueuedItem item, Disposition disposition, Effects fx) {
        settleAll(item, disposition, null, fx);
    }

    /** Settles every message of {@code item}, answered by a run whose replies report to {@code delivery}. */
    void settleAll(QueuedItem item, Disposition disposition, Delivery delivery, Effects fx) {
        item.tickets().forEach(ticket -> settle(ticket, disposition, delivery, fx));
    }

    /** How often typing must be refreshed in a channel; empty when it has no typing indicator. */
    Optional<Duration> typingRefresh(String channel) {
        ChannelCapabilities can = capabilities.get(channel);
        if (can == null || !can.typing()) {
            return Optional.empty();
        }
        return Optional.of(can.typingRefresh());
    }
}

package dev.laneway.core.engine;

import dev.laneway.core.Disposition;
import dev.laneway.core.Route;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.channel.ChannelCapabilities;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a message ends (docs/architecture.md, "the life of a message": settle): every message ends
 * exactly once with its {@link Disposition}. The disposition is recorded on its {@link Ticket} and its
 * admission slot given back at once, under the caller's session lock if it holds one; what follows
 * outside the engine (the journal's end-of-message record, for an answered message only once the
 * chat's outbox delivered what came before it; the listeners and metrics; the channel's
 * {@code settled} hook) goes into the caller's {@link Effects}. Also the channel's {@code accepted}
 * hook and the answered records of a run that answered before it ended.
 *
 * <p>Thread-safe: the ticket's disposition is atomic, {@code settling} is a striped counter (every
 * settle counts up and down: one shared counter would be contended by every carrier), a settle
 * counting up and its effects counting down on the one cell its message's sequence number names
 * (docs/decisions.md D240), the services are thread-safe. The channels' capabilities were read
 * once, when the gateway was built.
 */
final class Settlement {

    private static final Logger log = LoggerFactory.getLogger(Settlement.class);

    private final Admission admission;
    private final Outbox outbox;
    private final GatewayObserver observer;
    // the journal's end-of-message records, kept and retried while the journal refuses them
    private final JournalRecords journalRecords;
    private final IdleSignal idle;
    private final Map<String, ChannelAdapter> channels;
    // channel name -> its capabilities, read once; a channel whose capabilities could not be read is missing
    private final Map<String, ChannelCapabilities> capabilities;
    // whether any channel wants the accepted and settled hooks: most do not, and then no message looks them up
    private final boolean anyTracks;
    // settles decided under a session lock whose effects (journal record, outbox task) have not run yet
    private final StripedCounter settling = new StripedCounter();
    // receipts on the messages (docs/behaviour.md §16.5): a message's settle ends its receipt
    private final Receipts receipts;

    Settlement(Admission admission, Outbox outbox, GatewayObserver observer, JournalRecords journalRecords,
               IdleSignal idle, Map<String, ChannelAdapter> channels, Map<String, ChannelCapabilities> capabilities,
               Receipts receipts) {
        this.receipts = receipts;
        this.admission = admission;
        this.outbox = outbox;
        this.observer = observer;
        this.journalRecords = journalRecords;
        this.idle = idle;
        this.channels = channels;
        this.capabilities = capabilities;
        this.anyTracks = capabilities.values().stream().anyMatch(ChannelCapabilities::tracksMessages);
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
        settle(ticket, disposition, delivery, false, fx);
    }

    /**
     * @param recordQueued the message's answered record is queued in the outbox already, behind the
     *                     reply of its run that answered it ({@link #answeredBeforeEnd}), and will be
     *                     written (or kept back by {@code delivery}) just as this settle's own would:
     *                     this settle queues no second one
     */
    private void settle(Ticket ticket, Disposition disposition, Delivery delivery, boolean recordQueued, Effects fx) {
        if (!ticket.settle(disposition)) {
            log.error("bug: message {} already ended as {}, not recording {}", ticket.seq(), ticket.disposition(), disposition);
            return;
        }
        if (ticket.admitted()) {
            admission.release((int) ticket.seq());
        }
        settling.increment((int) ticket.seq()); // its sequence number names the cell: the same one up and down
        fx.add(() -> {
            try {
                settled(ticket, disposition, delivery, recordQueued);
            } finally {
                settling.decrement((int) ticket.seq());
                idle.signal(); // takes no lock unless someone waits (then for the last one: see settling())
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
        return settling.sum() > 0; // a settle counts up before its session can look idle, and down after
    }

    /** As {@link #settle(Ticket, Disposition, Effects)}, for a caller holding no lock: the effects run at once. */
    void settle(Ticket ticket, Disposition disposition) {
        Effects fx = new Effects();
        settle(ticket, disposition, fx);
        fx.run();
    }

    private void settled(Ticket ticket, Disposition disposition, Delivery delivery, boolean recordQueued) {
        receipts.ended(ticket, disposition); // before the answered record: a receipt never outlives the answer
        if (answered(disposition)) {
            // "answered" only once the answer went out: a crash before that runs the message again,
            // and so does a restart after the outbox gave up on the answer
            if (!recordQueued) {
                outbox.afterDelivered(ticket.route(), () -> recordAnswered(ticket, delivery));
            }
        } else {
            recordOnce(ticket, false);
        }
        observer.recorded(ticket.message(), disposition); // ObserverFanout guards it
        if (ticket.announced()) { // a message refused before it was accepted was never announced
            messageHook(ticket.route(), MessageHook.SETTLED);
        }
    }

    /**
     * Records {@code tickets} as answered once everything queued so far for {@code route}'s chat is
     * delivered (the reply that answered them), unless {@code stillWanted} then says the reply was
     * dropped or the outbox gave up on one of the run's replies ({@code delivery}): a run's
     * messages and the steers it answered, while the run goes on (see
     * {@link dev.laneway.core.agent.RunEvents#reply(String, java.util.List)}). Each message's record
     * is written once: its settle later writes nothing more.
     */
    void answeredBeforeEnd(Route route, List<Ticket> tickets, BooleanSupplier stillWanted, Delivery delivery) {
        Runnable record = answeredRecord(tickets, stillWanted, delivery);
        if (record != null) {
            outbox.afterDelivered(route, record);
        }
    }

    /**
     * The action {@link #answeredBeforeEnd} queues, for a caller that queues it itself right behind
     * the reply ({@link Outbox#answer(Route, dev.laneway.core.SessionKey, String, BooleanSupplier, Delivery, Runnable)});
     * null when there is nothing to record.
     */
    Runnable answeredRecord(List<Ticket> tickets, BooleanSupplier stillWanted, Delivery delivery) {
        if (tickets.isEmpty()) {
            return null;
        }
        return () -> {
            if (stillWanted.getAsBoolean()) {
                tickets.forEach(ticket -> recordAnswered(ticket, delivery));
            }
        };
    }

    /**
     * Tells the message's channel it was accepted (after journaling), in the chat's outbox order;
     * from then on the channel is also told when it ends.
     */
    void accepted(Ticket ticket) {
        ticket.announce();
        messageHook(ticket.route(), MessageHook.ACCEPTED);
    }

    /** Queues {@code hook} behind what the chat's outbox holds, so it never overtakes a reply. */
    private void messageHook(Route route, MessageHook hook) {
        if (!anyTracks) {
            return;
        }
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
            } catch (Throwable e) {
                Fatal.rethrowIfFatal(e);
                log.warn("{} hook of channel {} failed for message {}: {}", hook.name().toLowerCase(Locale.ROOT),
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
        item.tickets().forEach(ticket -> settle(ticket, disposition, delivery, false, fx));
    }

    /**
     * As {@link #settleAll(QueuedItem, Disposition, Delivery, Effects)} for the messages of a run that
     * ended without an abort after a reply of it queued their answered record
     * ({@link #answeredBeforeEnd}, behind that reply in the chat's outbox): that record is written,
     * or kept back by a failed {@code delivery}, exactly as the settle's own would be (the run is not
     * silenced, so it is still wanted), so the settle queues none. Every run that replies ends so
     * (docs/decisions.md D90).
     */
    void settleRecorded(QueuedItem item, Disposition disposition, Delivery delivery, Effects fx) {
        item.tickets().forEach(ticket -> settle(ticket, disposition, delivery, true, fx));
    }
}

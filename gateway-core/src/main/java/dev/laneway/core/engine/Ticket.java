package dev.laneway.core.engine;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.Route;
import dev.laneway.core.channel.Receipt;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One accepted inbound message on its way to a disposition. {@link #settle} records the
 * disposition exactly once, whichever thread gets there first; a second call is a bug and is
 * reported, never recorded twice. Its journal record is claimed once too ({@link #claimJournalRecord}):
 * a message answered by a reply of a run that goes on is recorded as answered then, and its
 * settle later writes nothing more.
 */
final class Ticket {

    private final long seq;
    private final InboundMessage message;
    private final boolean admitted;
    // admission's verdict was degrade and its agent has a fallback: its run starts there (docs/behaviour.md §13.3)
    private final boolean degraded;
    // set once, by compare-and-set through DISPOSITION (a field, not an AtomicReference: one object
    // less per message on the accept path)
    private volatile Disposition disposition;
    // the journal's record of its end was written (or handed to the journal) by someone; set once
    // through JOURNAL_RECORD
    private volatile boolean journalRecord;
    // the channel's accepted hook was queued for it (or, restored, by the process before the restart)
    private volatile boolean announced;
    // the receipt decided last (docs/behaviour.md §16.5; null: none yet), and whether it may change no
    // more (its answer arrived, or it is final); both guarded by the ticket's monitor (Receipts)
    Receipt receipt;
    boolean receiptDone;
    // the reaction the platform shows: written only by the chat's outbox actions, which run one at a time
    volatile Receipt receiptShown;
    // the message's route, made on first use: several steps reply to it. A benign race: two threads
    // may each make an equal one (a record of final fields, safely published either way)
    private Route route;

    private static final VarHandle DISPOSITION;
    private static final VarHandle JOURNAL_RECORD;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            DISPOSITION = lookup.findVarHandle(Ticket.class, "disposition", Disposition.class);
            JOURNAL_RECORD = lookup.findVarHandle(Ticket.class, "journalRecord", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** @param admitted whether the message holds an admission slot to give back when settled */
    Ticket(long seq, InboundMessage message, boolean admitted) {
        this(seq, message, admitted, false);
    }

    /**
     * @param admitted whether the message holds an admission slot to give back when settled
     * @param degraded the scheduler's admission degraded it: the run it leads starts on its agent's
     *                 first fallback (docs/behaviour.md §13.3)
     */
    Ticket(long seq, InboundMessage message, boolean admitted, boolean degraded) {
        this.seq = seq;
        this.message = message;
        this.admitted = admitted;
        this.degraded = degraded;
    }

    long seq() {
        return seq;
    }

    InboundMessage message() {
        return message;
    }

    /** The route that answers this message ({@link InboundMessage#route}), made once. */
    Route route() {
        Route made = route;
        if (made == null) {
            made = message.route();
            route = made;
        }
        return made;
    }

    boolean admitted() {
        return admitted;
    }

    boolean degraded() {
        return degraded;
    }

    /** The channel is told the message was accepted: from now on its end is reported to the channel too. */
    void announce() {
        announced = true;
    }

    /** Whether the channel was told the message was accepted (only then is it told that it ended). */
    boolean announced() {
        return announced;
    }

    /** Records the disposition; returns false (and records nothing) if one was recorded already. */
    boolean settle(Disposition value) {
        return DISPOSITION.compareAndSet(this, (Disposition) null, value);
    }

    Disposition disposition() {
        return disposition;
    }

    /** Whether someone has claimed the journal's record already (e.g. an earlier reply answered it). */
    boolean journalRecordClaimed() {
        return journalRecord;
    }

    /** True for the one caller that may write the journal's record of how this message ended. */
    boolean claimJournalRecord() {
        return JOURNAL_RECORD.compareAndSet(this, false, true);
    }
}

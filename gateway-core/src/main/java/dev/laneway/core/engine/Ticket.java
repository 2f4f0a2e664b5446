package dev.laneway.core.engine;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

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
    private final AtomicReference<Disposition> disposition = new AtomicReference<>();
    // the journal's record of its end was written (or handed to the journal) by someone
    private final AtomicBoolean journalRecord = new AtomicBoolean();
    // the channel's accepted hook was queued for it (or, restored, by the process before the restart)
    private volatile boolean announced;

    /** @param admitted whether the message holds an admission slot to give back when settled */
    Ticket(long seq, InboundMessage message, boolean admitted) {
        this.seq = seq;
        this.message = message;
        this.admitted = admitted;
    }

    long seq() {
        return seq;
    }

    InboundMessage message() {
        return message;
    }

    boolean admitted() {
        return admitted;
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
        return disposition.compareAndSet(null, value);
    }

    Disposition disposition() {
        return disposition.get();
    }

    /** Whether someone has claimed the journal's record already (e.g. an earlier reply answered it). */
    boolean journalRecordClaimed() {
        return journalRecord.get();
    }

    /** True for the one caller that may write the journal's record of how this message ended. */
    boolean claimJournalRecord() {
        return journalRecord.compareAndSet(false, true);
    }
}

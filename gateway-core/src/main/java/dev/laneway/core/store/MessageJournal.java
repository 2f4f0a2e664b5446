package dev.laneway.core.store;

import dev.laneway.core.SessionKey;
import dev.laneway.core.fleet.Lease;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The durable record of accepted messages that have not ended yet, so a restart or crash loses
 * nothing and answers nothing twice (docs/behaviour.md §9).
 *
 * <ul>
 *   <li>The gateway {@link #append appends} a message and waits for the returned future before it
 *       counts the message as accepted; implementations batch appends into group commits.</li>
 *   <li>When the message ends the gateway calls {@link #settled}: at once for a message that got
 *       no answer of its own (dropped, stopped, ...), and for an answered one only after its answer
 *       was handed to the channel, so a crash in between runs it again rather than losing the
 *       answer. An answered message leaves an "answered" record behind so a platform redelivery is
 *       recognised.</li>
 *   <li>At start-up the gateway reads {@link #pending()}: queued followups, steers never seen by a
 *       model, and messages whose run was in flight at the crash (runs are at-least-once).</li>
 * </ul>
 * All methods are thread-safe.
 */
public interface MessageJournal extends AutoCloseable {

    /** Nothing is kept: for tests and runs without a data directory. */
    MessageJournal NONE = new MessageJournal() {
        @Override
        public CompletableFuture<Void> append(JournalEntry entry) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void settled(long seq, boolean answered) {
        }

        @Override
        public List<JournalEntry> pending() {
            return List.of();
        }

        @Override
        public boolean seen(String messageKey) {
            return false;
        }

        @Override
        public long lastSequence() {
            return 0;
        }
    };

    /** Records an accepted message; the future completes once it is durable (fails if it cannot be). */
    CompletableFuture<Void> append(JournalEntry entry);

    /**
     * The message with this sequence number ended; {@code answered} when it got its answer. Once
     * this returns, the journal owns the record: one it cannot write at once (a full disk) it keeps
     * and writes later, never dropping it. It throws only when it cannot take the record now; the
     * gateway then keeps the record itself and calls again later, with backoff.
     */
    void settled(long seq, boolean answered);

    /**
     * {@link #settled(long, boolean)} for a message of a run that holds a fleet lease: a store shared
     * by a fleet writes the record only while {@code fence} is still the session's current lease
     * (checked atomically with the write), so an instance whose lease expired can neither record an
     * answer nor end a message that the lease's new holder will run (docs/architecture.md §7.1). A
     * record refused that way is dropped and its message stays pending. A store of one instance
     * ignores the fence.
     *
     * @return completes once the store wrote the record or gave it up for good (refused by the fence,
     *     store closed); a record kept for a retry keeps it open. The gateway keeps the session's lease
     *     until then, so the lease is never given back before the fenced record reached the store.
     */
    default CompletableFuture<Void> settled(long seq, boolean answered, Lease fence) {
        settled(seq, answered);
        return CompletableFuture.completedFuture(null);
    }

    /** Every appended, unsettled entry, in sequence order. */
    List<JournalEntry> pending();

    /**
     * The pending entries of one session, in sequence order: what a fleet's lease holder picks up
     * (docs/behaviour.md §17). The default filters {@link #pending()}.
     */
    default List<JournalEntry> pendingOf(SessionKey session) {
        return pending().stream().filter(entry -> entry.session().equals(session.value())).toList();
    }

    /**
     * The same, leaving out the entries whose sequence numbers {@code skip} names: a lease holder's
     * pick-up leaves out the messages it already runs, and a store that reads entries one by one
     * (Redis) need not read those at all (docs/architecture.md §7.1). The default filters
     * {@link #pendingOf(SessionKey)}.
     */
    default List<JournalEntry> pendingOf(SessionKey session, java.util.function.LongPredicate skip) {
        return pendingOf(session).stream().filter(entry -> !skip.test(entry.seq())).toList();
    }

    /**
     * {@link #pendingOf(SessionKey)} only to look at (a fleet's {@code /status} and {@code /stop} of a
     * session another instance holds): the journal keeps nothing of what it read, since those messages
     * end elsewhere (decision D234).
     */
    default List<JournalEntry> peekPendingOf(SessionKey session) {
        return pendingOf(session);
    }

    /**
     * Message {@code seq}, appended here, runs on another instance (docs/behaviour.md §17): its end
     * is never recorded here, so the journal forgets what it keeps for that end (decision D234).
     */
    default void runsElsewhere(long seq) {
    }

    /**
     * Whether sequence numbers are handed out by the journal ({@link #nextSequence}), shared by a
     * fleet's instances, rather than counted on from {@link #lastSequence} by this process.
     */
    default boolean sharesSequence() {
        return false;
    }

    /** The next sequence number of the fleet (only when {@link #sharesSequence}); may block for a round trip. */
    default long nextSequence() {
        throw new UnsupportedOperationException("this journal does not hand out sequence numbers");
    }

    /**
     * Records (or replaces) a live message of a streamed answer to the pending entry
     * {@code message.seq()}, keyed by its platform id (docs/behaviour.md §16.3). Does not wait; a
     * record for an entry that is no longer pending is ignored, and {@link #settled} forgets every
     * live message of its entry. Default: nothing is kept.
     */
    default void liveShown(LiveMessage message) {
    }

    /** Forgets one live message of entry {@code seq} (shown whole, or moved on to a new message). Does not wait. */
    default void liveGone(long seq, String messageId) {
    }

    /**
     * The live messages recorded for these pending entries, in sequence order (what a restart marks
     * as interrupted, docs/behaviour.md §16.3); includes records queued before this call.
     */
    default List<LiveMessage> liveMessages(Collection<Long> seqs) {
        return List.of();
    }

    /** Whether a message with this key was appended (pending, or answered within the retention). */
    boolean seen(String messageKey);

    /** The highest sequence number ever appended (0 when none), so numbering continues after a restart. */
    long lastSequence();

    @Override
    default void close() {
    }
}

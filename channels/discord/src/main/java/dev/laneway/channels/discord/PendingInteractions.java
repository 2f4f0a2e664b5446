package dev.laneway.channels.discord;

import dev.laneway.core.channel.ExpiringEntries;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Slash-command interactions that were deferred and wait for their answer, each with its
 * {@link State}. Discord accepts follow-ups on an interaction token for 15 minutes, so an entry
 * expires after {@link #DEFAULT_TTL}; at most {@code capacity} entries are kept, the oldest dropped
 * first, so a flood of commands cannot grow the map. A route whose entry is gone is answered as a
 * plain channel message instead. An id that is still here when Discord delivers it again is a
 * redelivery ({@link #put} says so).
 *
 * <p>Every entry starts {@link State#AWAITING}. The gateway's answer ({@link #answering}) and the
 * notice that closes a silent interaction ({@link #transition} to {@link State#FINISHED}) both leave
 * that state under the lock, so exactly one of them is first: an interaction is never both
 * answered and closed as unanswered, and never left waiting by both.
 *
 * <p>Concurrency: {@code lock} guards {@code entries} (an {@link ExpiringEntries}, which keeps an
 * entry's age when its state changes); JDA's event thread puts, the outbox's threads answer, the
 * scheduler's thread finishes. Entries are immutable records replaced under the lock; handles are
 * used outside it.
 *
 * @param <H> the handle to answer through (JDA's {@code InteractionHook} in production)
 */
final class PendingInteractions<H> {

    static final Duration DEFAULT_TTL = Duration.ofMinutes(14);
    static final int DEFAULT_CAPACITY = 1000;

    /** Where an interaction's answer stands. */
    enum State {
        /** Deferred ("thinking…"); nothing has been sent through it yet. */
        AWAITING,
        /** The gateway's answer went out, or is going out, through it. */
        ANSWERED,
        /** Closed with a notice because no answer came (or it could not be delivered). */
        FINISHED
    }

    private final ReentrantLock lock = new ReentrantLock();
    // interaction id -> pending answer; expires ttl after it was put, the oldest dropped beyond capacity; guarded by lock
    private final ExpiringEntries<Pending<H>> entries;

    PendingInteractions(InstantSource clock, Duration ttl, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        this.entries = new ExpiringEntries<>(clock, ttl, capacity);
    }

    /** Parks a deferred interaction as {@link State#AWAITING}; false (and nothing changes) when the id is already here. */
    boolean put(String interactionId, H handle, boolean ephemeral) {
        lock.lock();
        try {
            return entries.putIfAbsent(interactionId, new Pending<>(handle, ephemeral, State.AWAITING));
        } finally {
            lock.unlock();
        }
    }

    /** The pending answer for an interaction, unless it expired or was evicted. */
    Optional<Pending<H>> get(String interactionId) {
        lock.lock();
        try {
            return Optional.ofNullable(entries.get(interactionId));
        } finally {
            lock.unlock();
        }
    }

    /**
     * For sending an answer: marks an {@link State#AWAITING} interaction {@link State#ANSWERED} and
     * returns the entry as it was before, so the caller can tell whether this is the first answer.
     * A finished interaction stays finished (a late answer still goes through it).
     */
    Optional<Pending<H>> answering(String interactionId) {
        lock.lock();
        try {
            Pending<H> before = entries.get(interactionId);
            if (before != null && before.state() == State.AWAITING) {
                entries.replace(interactionId, before.in(State.ANSWERED));
            }
            return Optional.ofNullable(before);
        } finally {
            lock.unlock();
        }
    }

    /** Moves an interaction from {@code from} to {@code to}; the entry as it now is, or empty if it was not in {@code from}. */
    Optional<Pending<H>> transition(String interactionId, State from, State to) {
        lock.lock();
        try {
            Pending<H> before = entries.get(interactionId);
            if (before == null || before.state() != from) {
                return Optional.empty();
            }
            Pending<H> after = before.in(to);
            entries.replace(interactionId, after);
            return Optional.of(after);
        } finally {
            lock.unlock();
        }
    }

    /** Marks every {@link State#AWAITING} interaction {@link State#FINISHED} and returns them. */
    List<Pending<H>> finishAllAwaiting() {
        lock.lock();
        try {
            List<Pending<H>> finished = new ArrayList<>();
            entries.replaceAll((id, pending) -> {
                if (pending.state() != State.AWAITING) {
                    return pending;
                }
                Pending<H> after = pending.in(State.FINISHED);
                finished.add(after);
                return after;
            });
            return finished;
        } finally {
            lock.unlock();
        }
    }

    /** Drops an interaction (its acknowledgement failed): answers for it go to the channel instead. */
    void forget(String interactionId) {
        lock.lock();
        try {
            entries.remove(interactionId);
        } finally {
            lock.unlock();
        }
    }

    int size() {
        lock.lock();
        try {
            return entries.size();
        } finally {
            lock.unlock();
        }
    }

    /** An interaction's handle, whether its answers are ephemeral, and its state. */
    record Pending<H>(H handle, boolean ephemeral, State state) {
        Pending<H> in(State next) {
            return new Pending<>(handle, ephemeral, next);
        }
    }
}

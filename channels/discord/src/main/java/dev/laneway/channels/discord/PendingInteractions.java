package dev.laneway.channels.discord;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * <p>Concurrency: {@code lock} guards {@code entries}; JDA's event thread puts, the outbox's threads
 * answer, the scheduler's thread finishes. Entries are immutable records replaced under the lock;
 * handles are used outside it.
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

    private final InstantSource clock;
    private final Duration ttl;
    private final int capacity;
    private final ReentrantLock lock = new ReentrantLock();
    // interaction id -> pending answer, in arrival order (so the eldest is first)
    private final LinkedHashMap<String, Pending<H>> entries = new LinkedHashMap<>();

    PendingInteractions(InstantSource clock, Duration ttl, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        this.clock = clock;
        this.ttl = ttl;
        this.capacity = capacity;
    }

    /** Parks a deferred interaction as {@link State#AWAITING}; false (and nothing changes) when the id is already here. */
    boolean put(String interactionId, H handle, boolean ephemeral) {
        Instant now = clock.instant();
        lock.lock();
        try {
            purgeExpired(now);
            if (entries.containsKey(interactionId)) {
                return false;
            }
            entries.put(interactionId, new Pending<>(handle, ephemeral, now.plus(ttl), State.AWAITING));
            Iterator<String> eldest = entries.keySet().iterator();
            while (entries.size() > capacity) {
                eldest.next();
                eldest.remove();
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The pending answer for an interaction, unless it expired or was evicted. */
    Optional<Pending<H>> get(String interactionId) {
        Instant now = clock.instant();
        lock.lock();
        try {
            purgeExpired(now);
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
        Instant now = clock.instant();
        lock.lock();
        try {
            purgeExpired(now);
            Pending<H> before = entries.get(interactionId);
            if (before != null && before.state() == State.AWAITING) {
                entries.put(interactionId, before.in(State.ANSWERED));
            }
            return Optional.ofNullable(before);
        } finally {
            lock.unlock();
        }
    }

    /** Moves an interaction from {@code from} to {@code to}; the entry as it now is, or empty if it was not in {@code from}. */
    Optional<Pending<H>> transition(String interactionId, State from, State to) {
        Instant now = clock.instant();
        lock.lock();
        try {
            purgeExpired(now);
            Pending<H> before = entries.get(interactionId);
            if (before == null || before.state() != from) {
                return Optional.empty();
            }
            Pending<H> after = before.in(to);
            entries.put(interactionId, after);
            return Optional.of(after);
        } finally {
            lock.unlock();
        }
    }

    /** Marks every {@link State#AWAITING} interaction {@link State#FINISHED} and returns them. */
    List<Pending<H>> finishAllAwaiting() {
        Instant now = clock.instant();
        lock.lock();
        try {
            purgeExpired(now);
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

    // entries are in arrival order and share one ttl, so the expired ones are a prefix
    private void purgeExpired(Instant now) {
        Iterator<Map.Entry<String, Pending<H>>> it = entries.entrySet().iterator();
        while (it.hasNext() && !it.next().getValue().expiresAt().isAfter(now)) {
            it.remove();
        }
    }

    /** An interaction's handle, whether its answers are ephemeral, when the token stops working, and its state. */
    record Pending<H>(H handle, boolean ephemeral, Instant expiresAt, State state) {
        Pending<H> in(State next) {
            return new Pending<>(handle, ephemeral, expiresAt, next);
        }
    }
}

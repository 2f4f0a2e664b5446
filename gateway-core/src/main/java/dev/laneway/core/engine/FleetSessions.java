package dev.laneway.core.engine;

import dev.laneway.core.SessionKey;
import dev.laneway.core.fleet.Fleet;
import dev.laneway.core.fleet.Lease;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.core.store.MessageJournal;
import dev.laneway.core.time.Scheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This instance's sessions in a fleet (docs/behaviour.md §17): a session runs here only while this
 * instance holds its lease. The first message of a session not held here takes the lease (and picks
 * up the session's messages other instances journaled meanwhile); a message for a session whose
 * lease another instance holds is journaled and left pending, and that instance is nudged to pick
 * it up, in its mode (a steer steers its run, a followup queues, ...). Every message that runs here
 * is known with the lease it runs under, so its end is recorded fenced by that lease. A lease lost
 * (another instance took it after it expired) aborts the session here without a word: its records
 * are refused by the fence and its messages stay pending for the new holder. Every
 * {@link Fleet#sweepEvery()} a sweep gives back the leases of sessions with nothing running or
 * waiting here, picks up messages of held sessions a lost nudge did not announce, and takes over
 * sessions whose messages nobody holds a lease for (their instance died or left).
 *
 * <p>Concurrency: {@code held} (session to its holding) and {@code known} (seq to the holding it
 * runs under) are concurrent maps. A session's stripe lock (one of {@link #STRIPES}) orders taking
 * its lease, picking up its messages and giving the lease back, so a message is picked up once and
 * a lease is not given back while a message of it is on its way in; it is never taken under a
 * session lock (sessions' effects call in here only after their lock is released) and Redis is
 * asked under it (one round trip). {@code Holding.inFlight} counts the session's messages known
 * here whose end the journal has not written yet (queued or kept for a retry counts as not written):
 * a lease with any is kept.
 *
 * <p>A pick-up reads the session's pending messages from the journal and then takes those not in
 * {@code known}; a message ending meanwhile leaves {@code known} once its end is written, after the
 * journal's answer may still have listed it as pending, so it would be taken again and answered
 * twice (D182). {@code endedAt} (seq to the {@code endings} count at its end) closes that gap: a
 * pick-up skips what ended after it began reading. {@code readsFrom} counts the pick-ups reading
 * since each count, so a sweep forgets only ends no reading pick-up can still need.
 */
final class FleetSessions {

    private static final Logger log = LoggerFactory.getLogger(FleetSessions.class);
    static final int STRIPES = 64;
    /** Unleased sessions taken over per sweep at most. */
    static final int TAKEOVER_BATCH = 100;

    /** A lease held here, and how many of its session's messages run under it. */
    static final class Holding {
        final Lease lease;
        final AtomicInteger inFlight = new AtomicInteger();
        volatile boolean lost; // set once, before the session is abandoned

        Holding(Lease lease) {
            this.lease = lease;
        }
    }

    private final Fleet fleet;
    private final MessageJournal journal;
    private final Executor executor;
    private final Scheduler scheduler;
    // whether the engine has work for a session (the gateway's, set before start; until then none is given back)
    private volatile Predicate<SessionKey> busy = session -> true;
    private volatile Consumer<SessionKey> abandon = session -> { };
    private volatile ToIntFunction<SessionKey> stopper = session -> 0;
    private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];
    private final Map<SessionKey, Holding> held = new ConcurrentHashMap<>();
    private final Map<Long, Holding> known = new ConcurrentHashMap<>();
    private volatile Consumer<List<JournalEntry>> adopter = entries -> { };
    private volatile boolean stopped;
    private volatile Scheduler.Cancellable nextSweep = Scheduler.Cancellable.NONE;
    private final AtomicLong endings = new AtomicLong();
    private final Map<Long, Long> endedAt = new ConcurrentHashMap<>();
    private final Map<Long, Integer> readsFrom = new ConcurrentHashMap<>();
    private volatile long endingsAtLastSweep;

    FleetSessions(Fleet fleet, MessageJournal journal, Executor executor, Scheduler scheduler) {
        this.fleet = fleet;
        this.journal = journal;
        this.executor = executor;
        this.scheduler = scheduler;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new ReentrantLock();
        }
    }

    /** How picked-up messages enter their sessions (the reception's restore path, without inbound debounce). */
    void adopter(Consumer<List<JournalEntry>> value) {
        adopter = value;
    }

    /** Whether the engine has work for a session (the gateway's: a busy session keeps its lease). */
    void busyWhen(Predicate<SessionKey> value) {
        busy = value;
    }

    /** What aborting a session whose lease was lost does (the gateway's: stop its answers and its work, silently). */
    void abandon(Consumer<SessionKey> value) {
        abandon = value;
    }

    /** How a session is stopped here ({@code /stop}: the gateway's local stop; returns the messages cleared). */
    void stopper(ToIntFunction<SessionKey> value) {
        stopper = value;
    }

    /** Starts listening to nudges and sweeping (the first sweep now): instead of a restore at start. */
    void start() {
        // another instance's /stop of a session held here: its messages not picked up yet are, then all stop
        fleet.onStop(session -> {
            int dropped = pickUp(session, false); // those the stop mark drops are never run (D233)
            return dropped + stopper.applyAsInt(session);
        });
        fleet.onNudge(session -> executor.execute(() -> pickUp(session, true)));
        executor.execute(this::sweepAndReschedule);
    }

    /** No more sweeps or pick-ups (shutdown); the app gives the leases back when it leaves the fleet. */
    void stop() {
        stopped = true;
        nextSweep.cancel();
    }

    /**
     * Before message {@code seq} of {@code session} is journaled: true when it runs here (this
     * instance holds the session's lease, taken now if nobody held it, with the session's waiting
     * messages picked up first); false when another instance holds it. May block for round trips.
     *
     * @throws RuntimeException when the fleet's store cannot be asked (the message is refused)
     */
    boolean claim(SessionKey session, long seq) {
        List<JournalEntry> earlier = List.of();
        ReentrantLock stripe = stripe(session);
        stripe.lock();
        try {
            Holding holding = held.get(session);
            if (holding == null || holding.lost) {
                Optional<Lease> lease = fleet.leases().tryAcquire(session, this::lost);
                if (lease.isEmpty()) {
                    return false;
                }
                holding = new Holding(lease.get());
                held.put(session, holding);
                earlier = withoutStopped(session, holding, unknownPending(session, holding));
            }
            expectLocked(holding, seq);
        } finally {
            stripe.unlock();
        }
        if (!earlier.isEmpty()) {
            adopter.accept(earlier); // before the new message: they came first
            abandonIfLost(session, earlier.get(0).seq());
        }
        return true;
    }

    /**
     * Message {@code seq} (claimed, picked up) entered its session here: if its lease was lost
     * meanwhile, the session is abandoned again, so a message enqueued just after the abandon does
     * not run under a lost lease.
     */
    void enqueued(SessionKey session, long seq) {
        abandonIfLost(session, seq);
    }

    private void abandonIfLost(SessionKey session, long seq) {
        Holding holding = known.get(seq);
        if (holding != null && holding.lost) {
            executor.execute(() -> abandon.accept(session));
        }
    }

    /** The message was journaled for a session another instance holds: tell that instance. */
    void elsewhere(SessionKey session) {
        try {
            fleet.nudge(session);
        } catch (RuntimeException e) {
            log.debug("fleet: could not nudge the holder of session {} ({}); its sweep finds the message", session,
                    e.getMessage());
        }
    }

    /** The lease message {@code seq} runs under here, or null when it is not one of this instance's. */
    Lease leaseOf(long seq) {
        Holding holding = known.get(seq);
        return holding == null ? null : holding.lease;
    }

    /**
     * Message {@code seq}'s end reached the journal (or was refused for good): it no longer keeps its
     * session's lease here. Not when the end was merely queued: a lease given back before its fenced
     * record is written would have that record refused and the message run again (§7.1).
     */
    void ended(long seq) {
        endedAt.put(seq, endings.incrementAndGet()); // before it leaves known: see unknownPending
        Holding holding = known.remove(seq);
        if (holding != null) {
            holding.inFlight.decrementAndGet();
        }
    }

    /** This instance's id in the fleet. */
    String instanceId() {
        return fleet.instanceId();
    }

    /** Whether this instance holds the session's lease (and has not lost it). */
    boolean holdsHere(SessionKey session) {
        Holding holding = held.get(session);
        return holding != null && !holding.lost;
    }

    /**
     * {@code /stop} in a fleet (docs/behaviour.md §17, decision D233): raises the session's durable stop
     * mark and asks its lease's holder, if another instance, to stop it, without waiting. Null when
     * the fleet cannot be asked: the caller stops the session here only.
     */
    Fleet.Stop requestStop(SessionKey session) {
        try {
            return fleet.requestStop(session);
        } catch (RuntimeException e) {
            log.warn("fleet: could not mark session {} stopped nor ask its holder ({}); stopped here only", session,
                    e.getMessage());
            return null;
        }
    }

    /**
     * How many of the session's pending messages (read-only, from the shared journal) a stop mark of
     * {@code upTo} drops at its holder, but the oldest, taken to be running as {@code /status} does
     * (docs/behaviour.md §17); 0 when the journal cannot be read.
     */
    int pendingUpTo(SessionKey session, long upTo) {
        try {
            long count = journal.peekPendingOf(session).stream().filter(entry -> entry.seq() <= upTo).count();
            return (int) Math.max(0, count - 1);
        } catch (RuntimeException e) {
            log.debug("fleet: could not count the pending messages of session {} ({})", session, e.getMessage());
            return 0;
        }
    }

    /**
     * A session not held here as the fleet knows it: who holds its lease (null: nobody) and its pending
     * messages in the shared journal, oldest first; null when the fleet cannot be asked.
     */
    record Remote(String holder, List<JournalEntry> pending) {
    }

    /** The session's state in the fleet (two round trips), or null when it cannot be read. */
    Remote remote(SessionKey session) {
        try {
            String holder = fleet.holder(session).orElse(null);
            return new Remote(holder, journal.peekPendingOf(session)); // read-only: they settle elsewhere
        } catch (RuntimeException e) {
            log.debug("fleet: could not read the state of session {} ({})", session, e.getMessage());
            return null;
        }
    }

    /** Leases held here (for status). */
    int leasesHeld() {
        return held.size();
    }

    private void expectLocked(Holding holding, long seq) {
        if (known.putIfAbsent(seq, holding) == null) {
            holding.inFlight.incrementAndGet();
        }
    }

    /** The session's pending messages not known here yet, now known under {@code holding} (stripe held). */
    private List<JournalEntry> unknownPending(SessionKey session, Holding holding) {
        long from = endings.get();
        readsFrom.merge(from, 1, Integer::sum);
        try {
            List<JournalEntry> fresh = new ArrayList<>();
            // entries known here are not even read: the sweep asks this of every session held here (§7.1)
            for (JournalEntry entry : journal.pendingOf(session, known::containsKey)) {
                Long ended = endedAt.get(entry.seq());
                if (ended != null && ended > from) {
                    continue; // it ended while the journal was read: its end is written, not pending
                }
                if (known.putIfAbsent(entry.seq(), holding) == null) {
                    holding.inFlight.incrementAndGet();
                    fresh.add(entry);
                }
            }
            return fresh;
        } finally {
            readsFrom.computeIfPresent(from, (k, n) -> n == 1 ? null : n - 1);
        }
    }

    /**
     * Forgets the ends no pick-up can still need: those counted before every pick-up reading now
     * began, and before the last sweep (a pick-up that took its count but is not registered yet).
     */
    private void forgetOldEnds() {
        long floor = endingsAtLastSweep;
        for (Long reading : readsFrom.keySet()) {
            floor = Math.min(floor, reading);
        }
        long below = floor;
        endedAt.values().removeIf(count -> count <= below);
        endingsAtLastSweep = endings.get();
    }

    /** Ends remembered for pick-ups now (for tests). */
    int endsRemembered() {
        return endedAt.size();
    }

    /**
     * Picks up the session's messages not known here: under the lease held here, or one taken now
     * when {@code take} and nobody holds it. Runs on the executor (nudges, sweeps).
     */
    int pickUp(SessionKey session, boolean take) {
        if (stopped) {
            return 0;
        }
        int dropped;
        List<JournalEntry> fresh;
        ReentrantLock stripe = stripe(session);
        stripe.lock();
        try {
            Holding holding = held.get(session);
            if (holding == null || holding.lost) {
                if (!take) {
                    return 0;
                }
                Optional<Lease> lease = fleet.leases().tryAcquire(session, this::lost);
                if (lease.isEmpty()) {
                    return 0; // another instance took it first: it picks them up
                }
                holding = new Holding(lease.get());
                held.put(session, holding);
            }
            List<JournalEntry> unknown = unknownPending(session, holding);
            fresh = withoutStopped(session, holding, unknown);
            dropped = unknown.size() - fresh.size();
        } catch (RuntimeException e) {
            log.debug("fleet: could not pick up the messages of session {} ({}); the next sweep tries again", session,
                    e.getMessage());
            return 0;
        } finally {
            stripe.unlock();
        }
        if (!fresh.isEmpty()) {
            log.debug("fleet: picked up {} message(s) of session {}: {}", fresh.size(), session,
                    fresh.stream().map(JournalEntry::seq).toList());
            adopter.accept(fresh);
            abandonIfLost(session, fresh.get(0).seq());
        }
        return dropped;
    }

    /**
     * The picked-up entries a {@code /stop} did not mark (docs/behaviour.md §17, decision D233): those
     * up to the session's stop mark are ended here unanswered, fenced by {@code holding}'s lease, and
     * never run. Stripe held; one round trip when there is anything to check. A failed end leaves the
     * entry pending, to be dropped again at the next pick-up.
     */
    private List<JournalEntry> withoutStopped(SessionKey session, Holding holding, List<JournalEntry> entries) {
        if (entries.isEmpty()) {
            return entries;
        }
        long upTo = fleet.stoppedUpTo(session);
        if (entries.get(0).seq() > upTo) {
            return entries; // oldest first: nothing marked
        }
        List<JournalEntry> kept = new ArrayList<>(entries.size());
        for (JournalEntry entry : entries) {
            if (entry.seq() > upTo) {
                kept.add(entry);
                continue;
            }
            long seq = entry.seq();
            try {
                journal.settled(seq, false, holding.lease).whenComplete((ignored, error) -> ended(seq));
            } catch (RuntimeException e) {
                ended(seq);
            }
        }
        log.info("fleet: dropped {} message(s) of session {} stopped by a /stop (up to message {})",
                entries.size() - kept.size(), session, upTo);
        return kept;
    }

    /** The lease was lost: the session's work here is aborted without a word (its records are fenced away). */
    private void lost(Lease lease) {
        ReentrantLock stripe = stripe(lease.session());
        stripe.lock();
        try {
            Holding holding = held.get(lease.session());
            if (holding != null && holding.lease.equals(lease)) {
                holding.lost = true; // before the abandon below: see enqueued
                held.remove(lease.session(), holding);
            }
        } finally {
            stripe.unlock();
        }
        executor.execute(() -> abandon.accept(lease.session()));
    }

    private void sweepAndReschedule() {
        if (stopped) {
            return;
        }
        try {
            sweep();
        } catch (RuntimeException e) {
            log.warn("fleet: a sweep failed ({}); the next one tries again", e.toString());
        } finally {
            if (!stopped) {
                nextSweep = scheduler.schedule(fleet.sweepEvery(), () -> executor.execute(this::sweepAndReschedule));
            }
        }
    }

    /** Gives back idle sessions' leases, picks up what lost nudges did not announce, takes over unleased sessions. */
    void sweep() {
        forgetOldEnds();
        for (Map.Entry<SessionKey, Holding> entry : List.copyOf(held.entrySet())) {
            SessionKey session = entry.getKey();
            Holding holding = entry.getValue();
            boolean release = false;
            ReentrantLock stripe = stripe(session);
            stripe.lock();
            try {
                if (holding.inFlight.get() == 0 && !busy.test(session)) {
                    release = held.remove(session, holding);
                }
            } finally {
                stripe.unlock();
            }
            if (release) {
                try {
                    fleet.leases().release(holding.lease); // a claim meanwhile took a new token: this deletes nothing
                } catch (RuntimeException e) {
                    log.debug("fleet: could not give back the lease of session {} ({})", session, e.getMessage());
                }
            } else {
                pickUp(session, false);
            }
        }
        for (SessionKey session : fleet.unleased(TAKEOVER_BATCH)) {
            pickUp(session, true);
        }
    }

    private ReentrantLock stripe(SessionKey session) {
        return stripes[(session.hashCode() & 0x7fffffff) % STRIPES];
    }
}

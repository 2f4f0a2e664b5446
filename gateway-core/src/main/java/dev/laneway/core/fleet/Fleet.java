package dev.laneway.core.fleet;

import dev.laneway.core.SessionKey;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;

/**
 * What the engine needs of its fleet (docs/behaviour.md §17, docs/architecture.md §7.1): session
 * leases, a way to tell a session's lease holder that messages wait for it in the shared journal,
 * and the sessions whose messages nobody holds a lease for (their instance died or let go). A
 * gateway without one (a single instance) never asks any of this.
 *
 * <p>Implementations are thread-safe; every method but {@link #leases()} and {@link #sweepEvery()}
 * may block for a round trip to the shared store.
 */
public interface Fleet {

    /** This instance's id in the fleet (for logs and status). */
    String instanceId();

    SessionLeases leases();

    /**
     * Tells the instance that holds {@code session}'s lease that messages of the session wait in the
     * journal. Best effort: a nudge lost is made up for by the holder's own sweep.
     */
    void nudge(SessionKey session);

    /** Starts calling {@code handler} with the sessions other instances nudged this one about. */
    void onNudge(Consumer<SessionKey> handler);

    /** Who holds the session's lease now (an instance id), if anyone. One round trip. Default: nobody known. */
    default Optional<String> holder(SessionKey session) {
        return Optional.empty();
    }

    /**
     * What a {@code /stop} left in the fleet (docs/behaviour.md §17, decision D233): the instance that
     * holds the session's lease and was asked to stop it (null when nobody or this instance holds it),
     * and the stop mark: every message of the session with a sequence number up to {@code upTo} is
     * never run, by whoever holds the session now or takes it over later.
     */
    record Stop(String holder, long upTo) {
    }

    /**
     * A {@code /stop} of a session: writes its durable stop mark (the highest sequence number handed
     * out so far) and, when another instance holds the lease, asks that instance to stop it; does not
     * wait for its answer. Default: nothing marked, nobody asked.
     */
    default Stop requestStop(SessionKey session) {
        return new Stop(null, 0);
    }

    /** The session's stop mark: its messages up to this sequence number are not run (0: none). One round trip. */
    default long stoppedUpTo(SessionKey session) {
        return 0;
    }

    /**
     * Starts answering other instances' {@link #requestStop} requests with {@code handler}, which stops
     * the session here and returns how many messages it cleared; it is called on the caller's
     * executor, never on the thread that reads the requests. Call before {@link #onNudge}. Default: none.
     */
    default void onStop(ToIntFunction<SessionKey> handler) {
    }

    /** Up to {@code limit} sessions with pending messages that no instance holds a lease for. */
    List<SessionKey> unleased(int limit);

    /** How often the engine looks for unleased sessions and for messages of its own sessions. */
    Duration sweepEvery();
}

package dev.laneway.core.fleet;

import dev.laneway.core.SessionKey;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

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

    /** Up to {@code limit} sessions with pending messages that no instance holds a lease for. */
    List<SessionKey> unleased(int limit);

    /** How often the engine looks for unleased sessions and for messages of its own sessions. */
    Duration sweepEvery();
}

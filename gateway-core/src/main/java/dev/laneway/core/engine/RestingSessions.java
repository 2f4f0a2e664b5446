package dev.laneway.core.engine;

import dev.laneway.core.SessionKey;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Retires sessions that have rested (stayed idle in the registry, see {@link SessionQueue}) for
 * {@link #KEPT} or longer, so an idle chat keeps its session for its next message but not for
 * ever (docs/decisions.md D216). No timer: when a session is made (a chat the registry does not
 * hold), a sweep is started on the executor if the last one began at least half of {@link #KEPT}
 * ago. The registry grows only when a session is made, so it holds the sessions of the chats seen in
 * about the last {@link #KEPT} and a half, and those of a gateway that has made none since.
 *
 * <p>Concurrency: {@code nextSweep} is claimed by compare-and-set, so one sweep starts per period;
 * a sweep takes each session's lock in turn ({@link SessionQueue#retireIfRestingSince}), never two
 * at once, and the registry is a concurrent map.
 */
final class RestingSessions {

    /** How long a session rests in the registry before it retires. */
    static final Duration KEPT = Duration.ofMinutes(1);

    private final Map<SessionKey, SessionQueue> sessions;
    private final InstantSource clock;
    private final Executor executor;
    private final AtomicLong nextSweep;

    RestingSessions(Map<SessionKey, SessionQueue> sessions, InstantSource clock, Executor executor) {
        this.sessions = sessions;
        this.clock = clock;
        this.executor = executor;
        this.nextSweep = new AtomicLong(clock.millis() + KEPT.toMillis() / 2);
    }

    /** A session was made: sweeps out those that rested long enough, if a sweep is due (see the class comment). */
    void sessionMade() {
        long now = clock.millis();
        long due = nextSweep.get();
        if (now < due || !nextSweep.compareAndSet(due, now + KEPT.toMillis() / 2)) {
            return;
        }
        long before = now - KEPT.toMillis();
        try {
            executor.execute(() -> sweep(before));
        } catch (RejectedExecutionException e) {
            // shutting down: nothing to reclaim for
        }
    }

    /** Retires every session resting since {@code before} (epoch millis) or earlier; returns how many. */
    int sweep(long before) {
        int retired = 0;
        for (SessionQueue session : sessions.values()) {
            if (!session.busy() && session.retireIfRestingSince(before)) {
                retired++;
            }
        }
        return retired;
    }
}

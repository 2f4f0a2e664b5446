package dev.laneway.core.jobs;

import java.time.Instant;
import java.util.Optional;

/**
 * When a scheduled job fires: a cron expression in a time zone (built by the config module, which
 * owns the cron library) or a fixed interval ({@link Every}). Implementations are immutable and
 * thread-safe.
 */
public interface FireSchedule {

    /**
     * The first fire strictly after {@code after}, or empty when the schedule never fires again.
     *
     * @param anchor the job's last fire, or null when it never fired: an interval keeps its phase
     *               from it; a cron expression ignores it
     */
    Optional<Instant> next(Instant after, Instant anchor);

    /**
     * The latest fire in {@code (since, until]}, or empty when none falls there: the fire a gateway
     * that was down from {@code since} to {@code until} missed most recently.
     */
    Optional<Instant> latest(Instant since, Instant until);

    /** How the schedule is written, for logs and status: {@code cron "0 8 * * 1-5" in Europe/Berlin}, {@code every 30m}. */
    String describe();
}

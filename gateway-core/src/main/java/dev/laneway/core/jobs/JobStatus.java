package dev.laneway.core.jobs;

import java.time.Instant;
import java.time.ZoneId;

/**
 * A scheduled job as {@code /status} and {@code GET /status} show it.
 *
 * @param id          the job's id
 * @param target      where it posts
 * @param schedule    how its schedule is written ({@link FireSchedule#describe})
 * @param zone        its time zone
 * @param nextFire    when it fires next, or null (not started, stopped, or it never fires again)
 * @param lastFire    when it last fired (recorded), or null
 * @param skippedBusy fires skipped since start because the target session was busy ({@code ifBusy: skip})
 * @param paused      paused from the operator console (docs/behaviour.md §18): no fire until resumed
 */
public record JobStatus(String id, JobTarget target, String schedule, ZoneId zone, Instant nextFire, Instant lastFire,
                        long skippedBusy, boolean paused) {

    /** A job that is not paused. */
    public JobStatus(String id, JobTarget target, String schedule, ZoneId zone, Instant nextFire, Instant lastFire,
                     long skippedBusy) {
        this(id, target, schedule, zone, nextFire, lastFire, skippedBusy, false);
    }
}

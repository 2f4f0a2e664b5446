package dev.laneway.core.jobs;

import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * One entry of {@code schedules:} (docs/configuration.md §14), validated: a prompt posted to a chat
 * on a schedule, answered there by the agent as its own turn (docs/behaviour.md §12).
 *
 * @param id       unique among the jobs; the sender id of its messages is {@code schedule:<id>}
 * @param schedule when it fires (a cron expression in {@code zone}, or an interval)
 * @param zone     the time zone of a cron expression, and of the times status shows; default UTC
 * @param target   where the prompt is posted and answered
 * @param prompt   the text the agent gets
 * @param agent    the {@code agents.list} entry that answers it, or null for the gateway's agent
 * @param ifBusy   what a fire does while the target session is busy
 * @param catchUp  how late a fire missed while the gateway was down may still run, once, at start;
 *                 zero: never
 */
public record ScheduledJob(String id, FireSchedule schedule, ZoneId zone, JobTarget target, String prompt,
                           String agent, IfBusy ifBusy, Duration catchUp) {

    public static final ZoneId DEFAULT_ZONE = ZoneOffset.UTC;

    public ScheduledJob {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(schedule, "schedule");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(prompt, "prompt");
        zone = zone == null ? DEFAULT_ZONE : zone;
        ifBusy = ifBusy == null ? IfBusy.WAIT : ifBusy;
        catchUp = catchUp == null ? Duration.ZERO : catchUp;
        if (id.isBlank()) {
            throw new IllegalArgumentException("a scheduled job needs an id");
        }
        if (catchUp.isNegative()) {
            throw new IllegalArgumentException("catchUp must not be negative, got " + catchUp);
        }
        agent = agent == null || agent.isBlank() ? null : agent;
    }

    /** The sender id of the job's messages. */
    public String senderId() {
        return senderIdOf(id);
    }

    /** {@code schedule:<jobId>}: the sender id of a job's messages. */
    public static String senderIdOf(String jobId) {
        return "schedule:" + jobId;
    }
}

package dev.laneway.core.jobs;

import dev.laneway.core.engine.Gateway;

/** Where {@link ScheduledJobs} posts a fire: the gateway, or a test's recorder. Thread-safe. */
public interface JobSubmitter {

    /** Whether the session the job's prompt would join is busy now. */
    boolean busy(ScheduledJob job);

    /** Posts the job's prompt to its target; returns once it is journaled (true) or refused (false). */
    boolean submit(ScheduledJob job);

    /** Posts through {@link Gateway#submitScheduled}, asking {@link Gateway#scheduledTargetBusy}. */
    static JobSubmitter of(Gateway gateway) {
        return new JobSubmitter() {
            @Override
            public boolean busy(ScheduledJob job) {
                return gateway.scheduledTargetBusy(job.id(), job.target().route());
            }

            @Override
            public boolean submit(ScheduledJob job) {
                return gateway.submitScheduled(job.id(), job.target().route(), job.target().space(), job.prompt());
            }
        };
    }
}

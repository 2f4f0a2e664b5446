package dev.laneway.app.ops;

import dev.laneway.core.jobs.ScheduledJobs;

/** Pausing and resuming scheduled jobs, for the console's admin actions (docs/behaviour.md §18). */
public interface JobControls {

    /** No jobs: every id is unknown. */
    JobControls NONE = new JobControls() {
        @Override
        public ScheduledJobs.Change pause(String jobId) {
            return ScheduledJobs.Change.UNKNOWN;
        }

        @Override
        public ScheduledJobs.Change resume(String jobId) {
            return ScheduledJobs.Change.UNKNOWN;
        }
    };

    ScheduledJobs.Change pause(String jobId);

    ScheduledJobs.Change resume(String jobId);

    static JobControls of(ScheduledJobs jobs) {
        return new JobControls() {
            @Override
            public ScheduledJobs.Change pause(String jobId) {
                return jobs.pause(jobId);
            }

            @Override
            public ScheduledJobs.Change resume(String jobId) {
                return jobs.resume(jobId);
            }
        };
    }
}

package dev.laneway.core.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.store.InMemorySessionStore;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Pausing and resuming a job from the operator console (docs/behaviour.md §18): a paused job does
 * not fire, shows no next fire and says it is paused; resumed, it fires at its next fire after now
 * and nothing missed while paused is caught up. Time is manual; fires run on the test's thread.
 */
class ScheduledJobsPauseTest {

    private static final Instant T0 = Instant.parse("2026-03-02T00:00:00Z");
    private static final JobTarget TARGET = new JobTarget("test", "group", null);

    private final ManualTime time = new ManualTime(T0);
    private final List<String> posts = new CopyOnWriteArrayList<>();
    private final JobSubmitter submitter = new JobSubmitter() {
        @Override
        public boolean busy(ScheduledJob job) {
            return false;
        }

        @Override
        public boolean submit(ScheduledJob job) {
            posts.add(job.id() + "@" + time.instant());
            return true;
        }
    };

    private ScheduledJobs runner() {
        ScheduledJob hourly = new ScheduledJob("h", new Every(Duration.ofHours(1)), null, TARGET, "prompt", null,
                IfBusy.WAIT, Duration.ZERO);
        ScheduledJob other = new ScheduledJob("o", new Every(Duration.ofHours(1)), null, TARGET, "prompt", null,
                IfBusy.WAIT, Duration.ZERO);
        return new ScheduledJobs(List.of(hourly, other), new InMemorySessionStore(), submitter, time, time, Runnable::run,
                ScheduledJobs.Listener.NONE);
    }

    @Test
    void aPausedJobDoesNotFire_andResumedItFiresAtItsNextFireAfterNow_withoutCatchingUp() {
        ScheduledJobs jobs = runner();
        jobs.start();
        time.advance(Duration.ofHours(1));
        assertEquals(List.of("h@" + T0.plus(Duration.ofHours(1)), "o@" + T0.plus(Duration.ofHours(1))), posts.stream().sorted().toList());
        posts.clear();

        assertEquals(ScheduledJobs.Change.CHANGED, jobs.pause("h"));
        assertEquals(ScheduledJobs.Change.UNCHANGED, jobs.pause("h"));
        JobStatus paused = jobs.status().get(0);
        assertTrue(paused.paused());
        assertNull(paused.nextFire(), "a paused job has no next fire");
        assertFalse(jobs.status().get(1).paused(), "the other job is untouched");

        time.advance(Duration.ofMinutes(150)); // 02:00 passes while paused; now 03:30
        assertEquals(List.of("o@" + T0.plus(Duration.ofHours(2)), "o@" + T0.plus(Duration.ofHours(3))), posts);
        posts.clear();

        assertEquals(ScheduledJobs.Change.CHANGED, jobs.resume("h"));
        assertEquals(ScheduledJobs.Change.UNCHANGED, jobs.resume("h"));
        assertFalse(jobs.status().get(0).paused());
        assertEquals(T0.plus(Duration.ofHours(4)), jobs.status().get(0).nextFire(), "the next fire after now, in phase");
        assertEquals(List.of(), posts, "nothing missed while paused is caught up");
        time.advance(Duration.ofMinutes(30));
        assertEquals(List.of("h@" + T0.plus(Duration.ofHours(4)), "o@" + T0.plus(Duration.ofHours(4))), posts.stream().sorted().toList());
    }

    @Test
    void anUnknownJob_isReportedAsSuch() {
        ScheduledJobs jobs = runner();
        assertEquals(ScheduledJobs.Change.UNKNOWN, jobs.pause("nope"));
        assertEquals(ScheduledJobs.Change.UNKNOWN, jobs.resume("nope"));
    }

    @Test
    void aJobPausedBeforeStart_staysPausedAtStart_andArmsOnResume() {
        ScheduledJobs jobs = runner();
        jobs.pause("h");
        jobs.start();
        assertNull(jobs.status().get(0).nextFire());
        time.advance(Duration.ofHours(1));
        assertEquals(List.of("o@" + T0.plus(Duration.ofHours(1))), posts);
        jobs.resume("h");
        assertEquals(T0.plus(Duration.ofHours(2)), jobs.status().get(0).nextFire());
    }
}

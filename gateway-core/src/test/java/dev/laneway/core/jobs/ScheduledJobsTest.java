package dev.laneway.core.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import dev.laneway.core.Route;
import dev.laneway.core.store.InMemorySessionStore;
import dev.laneway.core.store.SessionStore;
import dev.laneway.core.testing.LogCapture;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The runner on its own (docs/behaviour.md §12): when jobs fire, that a fire is recorded before it
 * is posted, that a restart never fires twice, the catch-up rule, and that a failing job or store
 * never stops the runner. Time is manual; fires run on the test's thread.
 */
class ScheduledJobsTest {

    private static final Instant T0 = Instant.parse("2026-03-02T00:00:00Z");
    private static final JobTarget TARGET = new JobTarget("test", "group", null);

    private final InMemorySessionStore store = new InMemorySessionStore();
    private final Recorder posted = new Recorder(store);
    private final List<String> outcomes = new CopyOnWriteArrayList<>();

    /** Records posts, and what the store held for the job at the moment of each post. */
    private static final class Recorder implements JobSubmitter {
        final SessionStore store;
        final List<String> posts = new CopyOnWriteArrayList<>();
        final List<Optional<Instant>> recordedAtPost = new CopyOnWriteArrayList<>();
        volatile boolean busy;
        volatile RuntimeException failure;
        volatile boolean refuse; // the gateway refused the prompt (busy, storage unavailable)

        Recorder(SessionStore store) {
            this.store = store;
        }

        @Override
        public boolean busy(ScheduledJob job) {
            return busy;
        }

        @Override
        public boolean submit(ScheduledJob job) {
            recordedAtPost.add(store.lastFire(job.id()));
            if (failure != null) {
                throw failure;
            }
            posts.add(job.id());
            return !refuse;
        }
    }

    private static ScheduledJob hourly(String id, Duration catchUp, IfBusy ifBusy) {
        return new ScheduledJob(id, new Every(Duration.ofHours(1)), null, TARGET, "prompt of " + id, null, ifBusy,
                catchUp);
    }

    private ScheduledJobs runner(ManualTime time, SessionStore on, JobSubmitter submitter, ScheduledJob... jobs) {
        return new ScheduledJobs(List.of(jobs), on, submitter, time, time, Runnable::run,
                (job, outcome) -> outcomes.add(job + " " + outcome));
    }

    @Test
    void aJobFiresAtEachNextFire_andItsFireIsRecordedBeforeItIsPosted() {
        ManualTime time = new ManualTime(T0);
        ScheduledJobs jobs = runner(time, store, posted, hourly("h", Duration.ZERO, IfBusy.WAIT));
        jobs.start();
        assertEquals(T0.plus(Duration.ofHours(1)), jobs.status().get(0).nextFire(), "never fired: one interval after start");

        time.advance(Duration.ofMinutes(59));
        assertEquals(List.of(), posted.posts);
        time.advance(Duration.ofMinutes(1));
        assertEquals(List.of("h"), posted.posts);
        assertEquals(List.of(Optional.of(T0.plus(Duration.ofHours(1)))), posted.recordedAtPost,
                "the fire was already in the store when the prompt was posted");
        time.advance(Duration.ofHours(2));
        assertEquals(List.of("h", "h", "h"), posted.posts);

        JobStatus status = jobs.status().get(0);
        assertEquals(T0.plus(Duration.ofHours(3)), status.lastFire());
        assertEquals(T0.plus(Duration.ofHours(4)), status.nextFire());
        assertEquals(List.of("h POSTED", "h POSTED", "h POSTED"), outcomes);
    }

    @Test
    void aRestartRightAfterAFire_neverFiresItAgain() {
        ManualTime before = new ManualTime(T0);
        ScheduledJobs first = runner(before, store, posted, hourly("h", Duration.ofHours(1), IfBusy.WAIT));
        first.start();
        before.advance(Duration.ofHours(1));
        assertEquals(1, posted.posts.size());
        // crash: `first` is dropped; a new process starts on the same store ten seconds later

        ManualTime after = new ManualTime(before.instant().plusSeconds(10));
        ScheduledJobs second = runner(after, store, posted, hourly("h", Duration.ofHours(1), IfBusy.WAIT));
        second.start();
        assertEquals(1, posted.posts.size(), "nothing is caught up: the fire was recorded");
        assertEquals(T0.plus(Duration.ofHours(2)), second.status().get(0).nextFire(), "the phase is kept");
        after.advance(Duration.ofMinutes(59).plusSeconds(50));
        assertEquals(2, posted.posts.size(), "the next fire comes as usual, once");
        after.advance(Duration.ofMinutes(59));
        assertEquals(2, posted.posts.size());
    }

    @Test
    void aFireMissedWhileDown_withinCatchUp_runsOnceAtStart_andTheScheduleGoesOn() {
        store.recordFire("h", T0);
        // down from T0 until 3h20m later: fires at 1h, 2h and 3h were missed; 3h is 20 minutes old
        ManualTime time = new ManualTime(T0.plus(Duration.ofMinutes(200)));
        ScheduledJobs jobs = runner(time, store, posted, hourly("h", Duration.ofMinutes(30), IfBusy.WAIT));
        jobs.start();

        assertEquals(List.of("h"), posted.posts, "only the latest missed fire, once");
        assertEquals(Optional.of(T0.plus(Duration.ofHours(3))), store.lastFire("h"), "recorded as the fire it stands for");
        assertEquals(List.of("h CAUGHT_UP"), outcomes);
        assertEquals(T0.plus(Duration.ofHours(4)), jobs.status().get(0).nextFire());
        time.advance(Duration.ofMinutes(40));
        assertEquals(List.of("h", "h"), posted.posts);
    }

    @Test
    void aFireMissedWhileDown_olderThanCatchUp_isSkipped_withOneInfoLine() {
        store.recordFire("h", T0);
        ManualTime time = new ManualTime(T0.plus(Duration.ofMinutes(140))); // the 2h fire is 20 minutes old
        try (LogCapture log = LogCapture.of(ScheduledJobs.class)) {
            ScheduledJobs jobs = runner(time, store, posted, hourly("h", Duration.ofMinutes(15), IfBusy.WAIT));
            jobs.start();
            assertEquals(List.of(), posted.posts);
            assertEquals(List.of("h MISSED"), outcomes);
            assertEquals(1, log.messages(Level.INFO).stream().filter(line -> line.contains("missed its fire")).count());
            assertEquals(Optional.of(T0), store.lastFire("h"), "a skipped missed fire is not recorded as fired");
            assertEquals(T0.plus(Duration.ofHours(3)), jobs.status().get(0).nextFire());
            time.advance(Duration.ofMinutes(40));
            assertEquals(List.of("h"), posted.posts);
        }
    }

    @Test
    void catchUpZero_neverRunsAMissedFire_andAJobThatNeverFiredHasNothingToCatchUp() {
        store.recordFire("a", T0);
        ManualTime time = new ManualTime(T0.plus(Duration.ofMinutes(61)));
        ScheduledJobs jobs = runner(time, store, posted, hourly("a", Duration.ZERO, IfBusy.WAIT),
                hourly("b", Duration.ofDays(1), IfBusy.WAIT));
        jobs.start();
        assertEquals(List.of(), posted.posts);
        assertEquals(List.of("a MISSED"), outcomes);
        assertEquals(time.instant().plus(Duration.ofHours(1)), jobs.status().get(1).nextFire());
    }

    @Test
    void ifBusySkip_skipsAFireWhileTheTargetIsBusy_withOneInfoLineAndACount_butWaitPostsAnyway() {
        ManualTime time = new ManualTime(T0);
        ScheduledJobs jobs = runner(time, store, posted, hourly("skipper", Duration.ZERO, IfBusy.SKIP),
                hourly("waiter", Duration.ZERO, IfBusy.WAIT));
        jobs.start();
        posted.busy = true;
        try (LogCapture log = LogCapture.of(ScheduledJobs.class)) {
            time.advance(Duration.ofHours(1));
            assertEquals(List.of("waiter"), posted.posts);
            assertEquals(1, log.messages(Level.INFO).stream().filter(line -> line.contains("skipped its fire")).count());
        }
        assertEquals(1, jobs.status().get(0).skippedBusy());
        assertEquals(T0.plus(Duration.ofHours(1)), jobs.status().get(0).lastFire(), "a skipped fire is still a fire");

        posted.busy = false;
        time.advance(Duration.ofHours(1));
        assertEquals(List.of("waiter", "skipper", "waiter"), posted.posts);
        assertEquals(1, jobs.status().get(0).skippedBusy());
    }

    @Test
    void aJobWhosePostFails_logsOneErrorPerFire_andTheRunnerAndOtherJobsGoOn() {
        ManualTime time = new ManualTime(T0);
        JobSubmitter failingForA = new JobSubmitter() {
            @Override
            public boolean busy(ScheduledJob job) {
                return false;
            }

            @Override
            public boolean submit(ScheduledJob job) {
                if (job.id().equals("a")) {
                    throw new IllegalStateException("chat not found");
                }
                return posted.submit(job);
            }
        };
        ScheduledJobs jobs = runner(time, store, failingForA, hourly("a", Duration.ZERO, IfBusy.WAIT),
                hourly("b", Duration.ZERO, IfBusy.WAIT));
        jobs.start();
        try (LogCapture log = LogCapture.of(ScheduledJobs.class)) {
            time.advance(Duration.ofHours(3));
            assertEquals(3, log.messages(Level.ERROR).size(), String.valueOf(log.lines()));
            assertTrue(log.messages(Level.ERROR).get(0).contains("chat not found"));
        }
        assertEquals(List.of("b", "b", "b"), posted.posts);
        assertEquals(T0.plus(Duration.ofHours(4)), jobs.status().get(0).nextFire(), "the failing job still fires next hour");
    }

    @Test
    void aFireThatCannotBeRecorded_isNotPosted_andTheNextFireStillComes() {
        ManualTime time = new ManualTime(T0);
        InMemorySessionStore inner = new InMemorySessionStore();
        List<Instant> attempts = new ArrayList<>();
        SessionStore brokenOnce = new SessionStore() {
            @Override
            public Optional<dev.laneway.core.QueueOverride> queueOverride(dev.laneway.core.SessionKey session) {
                return Optional.empty();
            }

            @Override
            public void setQueueOverride(dev.laneway.core.SessionKey session, dev.laneway.core.QueueOverride override) {
            }

            @Override
            public List<dev.laneway.core.store.HistoryEntry> history(dev.laneway.core.SessionKey session, int limit) {
                return List.of();
            }

            @Override
            public void appendHistory(dev.laneway.core.SessionKey session, List<dev.laneway.core.store.HistoryEntry> entries) {
            }

            @Override
            public void clearHistory(dev.laneway.core.SessionKey session) {
            }

            @Override
            public Optional<Instant> lastFire(String jobId) {
                return inner.lastFire(jobId);
            }

            @Override
            public void recordFire(String jobId, Instant at) {
                attempts.add(at);
                if (attempts.size() == 1) {
                    throw new IllegalStateException("disk full");
                }
                inner.recordFire(jobId, at);
            }
        };
        Recorder recorder = new Recorder(inner);
        ScheduledJobs jobs = runner(time, brokenOnce, recorder, hourly("h", Duration.ZERO, IfBusy.WAIT));
        jobs.start();
        try (LogCapture log = LogCapture.of(ScheduledJobs.class)) {
            time.advance(Duration.ofHours(1));
            assertEquals(List.of(), recorder.posts, "firing unrecorded could fire it twice after a restart");
            assertEquals(1, log.messages(Level.ERROR).size());
        }
        time.advance(Duration.ofHours(1));
        assertEquals(List.of("h"), recorder.posts);
        assertEquals(List.of("h FAILED", "h POSTED"), outcomes);
    }

    @Test
    void aFireWhosePromptTheGatewayRefuses_countsAsFailed_withOneWarning_andTheNextFireStillComes() {
        ManualTime time = new ManualTime(T0);
        ScheduledJobs jobs = runner(time, store, posted, hourly("h", Duration.ZERO, IfBusy.WAIT));
        jobs.start();
        posted.refuse = true;
        try (LogCapture log = LogCapture.of(ScheduledJobs.class)) {
            time.advance(Duration.ofHours(1));
            assertEquals(1, log.warnings().stream().filter(w -> w.contains("refused its prompt")).count());
        }
        posted.refuse = false;
        time.advance(Duration.ofHours(1));
        assertEquals(List.of("h FAILED", "h POSTED"), outcomes);
    }

    @Test
    void stopCancelsEveryTimer() {
        ManualTime time = new ManualTime(T0);
        ScheduledJobs jobs = runner(time, store, posted, hourly("h", Duration.ZERO, IfBusy.WAIT));
        jobs.start();
        jobs.stop();
        time.advance(Duration.ofHours(5));
        assertEquals(List.of(), posted.posts);
        assertNull(jobs.status().get(0).nextFire());
        assertEquals(0, time.pendingTasks());
    }

    @Test
    void statusFor_listsOnlyTheJobsPostingToThatConversation() {
        ManualTime time = new ManualTime(T0);
        ScheduledJob elsewhere = new ScheduledJob("other", new Every(Duration.ofHours(1)), null,
                new JobTarget("test", "group", "thread-1"), "p", null, IfBusy.WAIT, Duration.ZERO);
        ScheduledJobs jobs = runner(time, store, posted, hourly("h", Duration.ZERO, IfBusy.WAIT), elsewhere);
        jobs.start();
        assertEquals(List.of("h"), jobs.statusFor(new Route("test", "default", "group", null, null)).stream()
                .map(JobStatus::id).toList());
        assertEquals(List.of("other"), jobs.statusFor(new Route("test", "default", "group", "thread-1", null)).stream()
                .map(JobStatus::id).toList());
        assertEquals(List.of(), jobs.statusFor(new Route("test", "default", "dm", null, null)));
    }
}

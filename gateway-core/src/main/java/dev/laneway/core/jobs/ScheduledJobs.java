package dev.laneway.core.jobs;

import dev.laneway.core.Route;
import dev.laneway.core.store.SessionStore;
import dev.laneway.core.time.Scheduler;
import dev.laneway.core.time.Scheduler.Cancellable;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fires the scheduled jobs of {@code schedules:} (docs/behaviour.md §12).
 *
 * <p>At {@link #start}, each job's next fire is computed from its last fire in the store. A fire the
 * gateway missed while it was down (the latest one since the stored fire) runs once, at start, when
 * it is at most the job's {@code catchUp} old; otherwise it is skipped with one INFO line
 * (docs/decisions.md D58). A job that never fired has nothing to catch up.
 *
 * <p>Each fire, on the executor (a timer task only hands it over): the fire time is recorded in the
 * store first, durably, and only then is the prompt submitted, so a restart never fires a job twice
 * (a crash between the two loses that one fire instead, D57); with {@code ifBusy: skip} a fire whose
 * target session is busy is recorded, then skipped (one INFO line, counted); then the next fire is
 * scheduled. Whatever one fire throws is logged (one ERROR line) and the next fire still comes: a
 * failing job never stops the runner or the other jobs.
 *
 * <p>The operator console may {@link #pause} a job (its timer is cancelled, no fire until it is
 * resumed; a fire already handed to the executor still posts) and {@link #resume} it (its next
 * fire after now, nothing caught up). A pause lasts until the process ends (docs/behaviour.md §18).
 *
 * <p>Concurrency: {@code lock} guards every {@link Slot}'s fields, {@code started} and
 * {@code stopped}; the store and the submitter are called without it. Timer tasks take the lock
 * only to check that their fire is still the slot's current one.
 */
public final class ScheduledJobs {

    private static final Logger log = LoggerFactory.getLogger(ScheduledJobs.class);

    /** How one fire ended, for metrics. */
    public enum Outcome {
        /** Its prompt was posted to its target. */
        POSTED,
        /** A fire missed while the gateway was down, posted at start (within {@code catchUp}). */
        CAUGHT_UP,
        /** Skipped: the target session was busy and the job says {@code ifBusy: skip}. */
        SKIPPED_BUSY,
        /** A fire missed while the gateway was down, older than {@code catchUp}: not run. */
        MISSED,
        /** Recording or posting it failed (logged). */
        FAILED
    }

    /** Told of every fire's outcome; must be thread-safe and must not block. */
    @FunctionalInterface
    public interface Listener {
        Listener NONE = (jobId, outcome) -> { };

        void fired(String jobId, Outcome outcome);
    }

    /** One job's state; fields guarded by {@code lock}. */
    private static final class Slot {
        final ScheduledJob job;
        Instant next;
        Instant last;
        Cancellable timer = Cancellable.NONE;
        long skippedBusy;
        boolean paused;

        Slot(ScheduledJob job) {
            this.job = job;
        }
    }

    private final Map<String, Slot> slots = new LinkedHashMap<>();
    private final SessionStore store;
    private final JobSubmitter submitter;
    private final InstantSource clock;
    private final Scheduler scheduler;
    private final Executor executor;
    private final Listener listener;
    private final ReentrantLock lock = new ReentrantLock();
    private boolean started;
    private boolean stopped;

    /**
     * @param executor runs each fire (a store write and a journal append, which may block); production
     *                 passes the gateway's virtual-thread executor
     */
    public ScheduledJobs(List<ScheduledJob> jobs, SessionStore store, JobSubmitter submitter, InstantSource clock,
                         Scheduler scheduler, Executor executor, Listener listener) {
        this.store = Objects.requireNonNull(store, "store");
        this.submitter = Objects.requireNonNull(submitter, "submitter");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.listener = listener == null ? Listener.NONE : listener;
        for (ScheduledJob job : jobs) {
            if (slots.putIfAbsent(job.id(), new Slot(job)) != null) {
                throw new IllegalArgumentException("two scheduled jobs with the id " + job.id());
            }
        }
    }

    /**
     * Computes each job's next fire from its stored last fire and arms its timer; runs, once, a fire
     * missed while the gateway was down when it is within the job's {@code catchUp}. Call after the
     * gateway has started. A second call does nothing.
     */
    public void start() {
        List<Runnable> catchUps = new ArrayList<>();
        lock.lock();
        try {
            if (started || stopped) {
                return;
            }
            started = true;
        } finally {
            lock.unlock();
        }
        Instant now = clock.instant();
        for (Slot slot : slots.values()) {
            ScheduledJob job = slot.job;
            Instant last = storedLastFire(job);
            Instant anchor = last;
            Optional<Instant> missed = last == null ? Optional.empty() : job.schedule().latest(last, now);
            if (missed.isPresent()) {
                Instant fire = missed.get();
                if (!job.catchUp().isZero() && !now.isAfter(fire.plus(job.catchUp()))) {
                    anchor = fire;
                    catchUps.add(() -> fire(slot, fire, true));
                } else {
                    log.info("schedule: job {} missed its fire of {} while the gateway was down; it is older than its"
                                    + " catchUp ({}), so it is skipped", job.id(), JobTimes.local(fire, job.zone()),
                            JobTimes.duration(job.catchUp()));
                    listener.fired(job.id(), Outcome.MISSED);
                }
            }
            lock.lock();
            try {
                slot.last = last;
                arm(slot, now, anchor);
            } finally {
                lock.unlock();
            }
        }
        log.info("schedule: {} job(s) started{}", slots.size(), catchUps.isEmpty() ? ""
                : ", " + catchUps.size() + " missed fire(s) caught up now");
        catchUps.forEach(this::dispatch);
    }

    /** Cancels every timer; a fire already handed to the executor may still post. Idempotent. */
    public void stop() {
        lock.lock();
        try {
            stopped = true;
            for (Slot slot : slots.values()) {
                slot.timer.cancel();
                slot.timer = Cancellable.NONE;
                slot.next = null;
            }
        } finally {
            lock.unlock();
        }
    }

    /** What a pause or resume found. */
    public enum Change {
        /** The job's state changed. */
        CHANGED,
        /** It was already in that state. */
        UNCHANGED,
        /** No job has that id. */
        UNKNOWN
    }

    /** Stops the job's fires until {@link #resume}; a fire already handed to the executor still posts. */
    public Change pause(String jobId) {
        lock.lock();
        try {
            Slot slot = slots.get(jobId);
            if (slot == null) {
                return Change.UNKNOWN;
            }
            if (slot.paused) {
                return Change.UNCHANGED;
            }
            slot.paused = true;
            slot.timer.cancel();
            slot.timer = Cancellable.NONE;
            slot.next = null;
        } finally {
            lock.unlock();
        }
        log.info("schedule: job {} paused from the operator console", jobId);
        return Change.CHANGED;
    }

    /** Arms a paused job again for its next fire after now; a fire missed while paused is not caught up. */
    public Change resume(String jobId) {
        lock.lock();
        try {
            Slot slot = slots.get(jobId);
            if (slot == null) {
                return Change.UNKNOWN;
            }
            if (!slot.paused) {
                return Change.UNCHANGED;
            }
            slot.paused = false;
            if (started) {
                arm(slot, clock.instant(), slot.last);
            }
        } finally {
            lock.unlock();
        }
        log.info("schedule: job {} resumed from the operator console", jobId);
        return Change.CHANGED;
    }

    /** Every job, in config order, with its next and last fire. */
    public List<JobStatus> status() {
        lock.lock();
        try {
            List<JobStatus> all = new ArrayList<>(slots.size());
            slots.values().forEach(slot -> all.add(status(slot)));
            return all;
        } finally {
            lock.unlock();
        }
    }

    /** The jobs that post to this conversation (channel, chat and thread), for the chat's {@code /status}. */
    public List<JobStatus> statusFor(Route conversation) {
        return status().stream().filter(job -> job.target().targets(conversation)).toList();
    }

    private static JobStatus status(Slot slot) {
        ScheduledJob job = slot.job;
        return new JobStatus(job.id(), job.target(), job.schedule().describe(), job.zone(), slot.next, slot.last,
                slot.skippedBusy, slot.paused);
    }

    private Instant storedLastFire(ScheduledJob job) {
        try {
            return store.lastFire(job.id()).orElse(null);
        } catch (RuntimeException e) {
            log.error("schedule: the last fire of job {} could not be read from the store; it is treated as never"
                    + " fired (nothing is caught up)", job.id(), e);
            return null;
        }
    }

    /** Arms the slot's timer for its first fire after {@code after} (lock held). */
    private void arm(Slot slot, Instant after, Instant anchor) {
        if (stopped || slot.paused) {
            return;
        }
        ScheduledJob job = slot.job;
        Optional<Instant> next;
        try {
            next = job.schedule().next(after, anchor);
        } catch (RuntimeException e) {
            log.error("schedule: the next fire of job {} could not be computed; it fires no more", job.id(), e);
            next = Optional.empty();
        }
        slot.next = next.orElse(null);
        if (next.isEmpty()) {
            log.info("schedule: job {} ({}) has no fire left", job.id(), job.schedule().describe());
            return;
        }
        Instant due = next.get();
        Duration delay = Duration.between(clock.instant(), due);
        slot.timer = scheduler.schedule(delay.isNegative() ? Duration.ZERO : delay, () -> due(slot, due));
        log.debug("schedule: job {} fires next at {}", job.id(), due);
    }

    /** The timer of {@code fire} went off: hands the fire to the executor, unless it is stale. */
    private void due(Slot slot, Instant fire) {
        lock.lock();
        try {
            if (stopped || !fire.equals(slot.next)) {
                return;
            }
            slot.timer = Cancellable.NONE;
        } finally {
            lock.unlock();
        }
        dispatch(() -> fire(slot, fire, false));
    }

    private void dispatch(Runnable task) {
        try {
            executor.execute(task);
        } catch (RejectedExecutionException e) {
            log.warn("schedule: a fire was not run: the executor is shutting down");
        }
    }

    /**
     * One fire of {@code slot}'s job at {@code fire}: record, then skip or post; then (unless it is a
     * catch-up fire, whose job was armed at start) arm the next fire. Never throws.
     */
    private void fire(Slot slot, Instant fire, boolean catchUp) {
        ScheduledJob job = slot.job;
        try {
            Outcome outcome = post(slot, fire, catchUp);
            listener.fired(job.id(), outcome);
        } catch (Throwable e) {
            if (e instanceof VirtualMachineError fatal) {
                throw fatal;
            }
            log.error("schedule: job {} failed at its fire of {}", job.id(), fire, e);
            listener.fired(job.id(), Outcome.FAILED);
        } finally {
            if (!catchUp) {
                lock.lock();
                try {
                    Instant now = clock.instant();
                    arm(slot, now.isAfter(fire) ? now : fire, fire);
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    private Outcome post(Slot slot, Instant fire, boolean catchUp) {
        ScheduledJob job = slot.job;
        lock.lock();
        try {
            if (stopped) {
                return Outcome.FAILED;
            }
        } finally {
            lock.unlock();
        }
        try {
            store.recordFire(job.id(), fire); // first: a restart must never fire it again
        } catch (RuntimeException e) {
            log.error("schedule: job {} did not fire at {}: its fire could not be recorded ({}), and firing"
                    + " unrecorded could fire it twice", job.id(), JobTimes.local(fire, job.zone()), e.toString());
            return Outcome.FAILED;
        }
        lock.lock();
        try {
            slot.last = fire;
        } finally {
            lock.unlock();
        }
        if (job.ifBusy() == IfBusy.SKIP && submitter.busy(job)) {
            lock.lock();
            try {
                slot.skippedBusy++;
            } finally {
                lock.unlock();
            }
            log.info("schedule: job {} skipped its fire of {}: {} is busy (ifBusy: skip)", job.id(),
                    JobTimes.local(fire, job.zone()), job.target());
            return Outcome.SKIPPED_BUSY;
        }
        try {
            if (!submitter.submit(job)) {
                log.warn("schedule: job {} fired ({}), but the gateway refused its prompt to {} (busy or storage"
                        + " unavailable); this fire is lost", job.id(), JobTimes.local(fire, job.zone()), job.target());
                return Outcome.FAILED;
            }
        } catch (RuntimeException e) {
            log.error("schedule: job {} could not post its fire of {} to {}: {}", job.id(),
                    JobTimes.local(fire, job.zone()), job.target(), e.toString());
            return Outcome.FAILED;
        }
        log.info("schedule: job {} fired{} ({}), posted to {}", job.id(), catchUp ? " late, catching up" : "",
                JobTimes.local(fire, job.zone()), job.target());
        return catchUp ? Outcome.CAUGHT_UP : Outcome.POSTED;
    }
}

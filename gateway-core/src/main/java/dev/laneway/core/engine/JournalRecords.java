package dev.laneway.core.engine;

import dev.laneway.core.store.MessageJournal;
import dev.laneway.core.time.Scheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the journal's record of how each message ended ({@link MessageJournal#settled}) and never
 * drops one: a record the journal refuses (it throws: storage full or failing) is kept in memory
 * and tried again on the gateway's scheduler, after 1 s, doubling up to 1 min, until the journal
 * takes it. So an answered message whose "answered" record failed for a while is not answered
 * again after a later restart. One outage logs one ERROR line when it begins (not one per record
 * or per retry) and one INFO line when every kept record is written.
 *
 * <p>Concurrency: {@code lock} guards {@code failing}, {@code backoff}, {@code retryArmed} and
 * {@code outage}. The journal is called without it held, from whichever thread records (the
 * outbox's, a session's effects, the scheduler's for retries).
 */
final class JournalRecords {

    private static final Logger log = LoggerFactory.getLogger(JournalRecords.class);

    static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    static final Duration MAX_RETRY = Duration.ofMinutes(1);

    private final MessageJournal journal;
    private final Scheduler scheduler;
    private final FleetSessions fleet; // null: one instance, no fences
    private final ReentrantLock lock = new ReentrantLock();
    // seq -> whether it ended answered: records the journal refused, oldest first
    private final Map<Long, Boolean> failing = new LinkedHashMap<>();
    private Duration backoff = FIRST_RETRY;
    private boolean retryArmed;
    private boolean outage;

    JournalRecords(MessageJournal journal, Scheduler scheduler) {
        this(journal, scheduler, null);
    }

    /** @param fleet this instance's fleet sessions, whose leases fence the records; null for one instance */
    JournalRecords(MessageJournal journal, Scheduler scheduler, FleetSessions fleet) {
        this.journal = journal;
        this.scheduler = scheduler;
        this.fleet = fleet;
    }

    /** Records that message {@code seq} ended; a refused record is kept and retried. */
    void record(long seq, boolean answered) {
        RuntimeException error = write(seq, answered);
        if (error != null) {
            keep(Map.of(seq, answered), error);
        }
    }

    /** Records the journal refused and still holds, to write again (for tests and status). */
    int failingCount() {
        lock.lock();
        try {
            return failing.size();
        } finally {
            lock.unlock();
        }
    }

    private RuntimeException write(long seq, boolean answered) {
        try {
            if (fleet == null) {
                journal.settled(seq, answered);
            } else {
                // fenced by the lease it ran under (§17); the lease is kept until the record reached the
                // store (or was refused for good), so it is never given back before (docs/architecture.md §7.1)
                journal.settled(seq, answered, fleet.leaseOf(seq)).whenComplete((ignored, error) -> fleet.ended(seq));
            }
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }

    private void keep(Map<Long, Boolean> refused, RuntimeException error) {
        boolean first;
        boolean arm;
        Duration delay;
        int count;
        lock.lock();
        try {
            failing.putAll(refused);
            count = failing.size();
            first = !outage;
            outage = true;
            arm = !retryArmed;
            retryArmed = true;
            delay = backoff;
        } finally {
            lock.unlock();
        }
        if (first) {
            log.error("journal: could not record the end of message {} ({}); keeping it in memory and retrying every"
                    + " {} s up to {} s until the journal takes it (further failures are not logged one by one)",
                    refused.keySet().iterator().next(), error.toString(), FIRST_RETRY.toSeconds(),
                    MAX_RETRY.toSeconds());
        } else {
            log.debug("journal: {} record(s) waiting to be written: {}", count, error.toString());
        }
        if (arm) {
            arm(delay);
        }
    }

    private void arm(Duration delay) {
        try {
            scheduler.schedule(delay, this::retry);
        } catch (RejectedExecutionException e) {
            // the scheduler has stopped: the gateway is gone, and so is the chance to write them
            int left = failingCount();
            log.error("journal: {} record(s) of ended messages could not be written before the gateway stopped;"
                    + " those messages run again after the restart", left);
        }
    }

    private void retry() {
        Map<Long, Boolean> batch;
        lock.lock();
        try {
            batch = new LinkedHashMap<>(failing);
            failing.clear();
        } finally {
            lock.unlock();
        }
        Map<Long, Boolean> refused = new LinkedHashMap<>();
        RuntimeException lastError = null;
        List<Long> written = new ArrayList<>();
        for (Map.Entry<Long, Boolean> entry : batch.entrySet()) {
            RuntimeException error = write(entry.getKey(), entry.getValue());
            if (error == null) {
                written.add(entry.getKey());
            } else {
                refused.put(entry.getKey(), entry.getValue());
                lastError = error;
            }
        }
        Duration next = null;
        boolean recovered = false;
        lock.lock();
        try {
            // records refused again go before any kept while this retry ran: oldest first
            Map<Long, Boolean> merged = new LinkedHashMap<>(refused);
            merged.putAll(failing);
            failing.clear();
            failing.putAll(merged);
            if (failing.isEmpty()) {
                retryArmed = false;
                recovered = outage;
                outage = false;
                backoff = FIRST_RETRY;
            } else {
                backoff = min(backoff.multipliedBy(2), MAX_RETRY);
                next = backoff;
            }
        } finally {
            lock.unlock();
        }
        if (recovered) {
            log.info("journal: recording works again; every kept record is written");
        } else if (lastError != null) {
            log.debug("journal: {} record(s) still refused ({} written): {}", refused.size(), written.size(),
                    lastError.toString());
        }
        if (next != null) {
            arm(next);
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}

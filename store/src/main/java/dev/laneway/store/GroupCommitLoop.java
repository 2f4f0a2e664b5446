package dev.laneway.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;

/**
 * The single writer thread and group-commit loop that the SQLite store's writer and the Redis
 * store's writer extend (docs/architecture.md §4 and §7, docs/decisions.md D248); each says how it
 * writes a batch, expires answered records, retries the records it kept and closes its connection
 * through the abstract methods.
 *
 * <p>Threads and ownership:
 * <ul>
 *   <li>One platform daemon thread (named by the writer) takes the queued ops and calls every
 *       abstract method; the writer's own state needs no lock as long as only those methods (and
 *       what they call) touch it. It also owns {@code nextExpiry}.</li>
 *   <li>Any thread may {@link #submit} an op: it goes into {@code queue} (a
 *       {@link LinkedBlockingQueue}) with a future that the writer completes on the thread. Beside
 *       the writer's ops the queue carries the loop's own entries: a {@link #hold} (tests) and the stop
 *       that {@link #close} queues.</li>
 *   <li>{@code gate} (read side: submit and hold, write side: close) guards {@code closed}, so "still
 *       open? then enqueue" is atomic against close, which marks the loop closed and enqueues the stop
 *       under the write side. The stop is therefore the last entry ever queued: every op before it is
 *       handed to the writer before its last steps run and the thread exits.</li>
 * </ul>
 *
 * <p>The loop: wait for the first queued op until expiry or a retry of kept records is due (at most
 * {@code expiryInterval}), then the housekeeping (after an idle wait too): {@link #expire} when the
 * store's clock says it is due (every {@code expiryInterval}; at once again while it deletes
 * {@link #EXPIRY_LIMIT} at a time) and {@link #retryIfDue}; then take whatever else is
 * queued at that moment (up to {@code maxBatch} entries in all) and hand its ops to {@link #commit}.
 * A hold taken first parks the thread on its latch instead, so writes pile up behind it (one taken
 * behind an op holds nothing: it completes after the batch). After the batch that ends with the
 * stop: {@link #retryIfDue} once more, {@link #failKept}, {@link #closeConnection}. An unexpected
 * failure fails the batch's futures (the entry taken before the housekeeping included) and is
 * logged; a stop in the failed batch still stops the loop.
 *
 * @param <O> the writer's op type
 */
public abstract class GroupCommitLoop<O> implements AutoCloseable {

    /** Answered records one {@link #expire} deletes at the most. */
    protected static final int EXPIRY_LIMIT = 5_000;

    /** An op with the future its submitter waits on. */
    public record Queued<O>(O op, CompletableFuture<Void> done) { }

    /** What the queue carries: an op ({@code write}), a hold ({@code hold}) or, with neither, the stop. */
    private record Entry<O>(Queued<O> write, CountDownLatch hold, CompletableFuture<Void> done) {
        boolean stops() {
            return write == null && hold == null;
        }
    }

    private final Object store;
    private final StoreOptions options;
    private final Logger log;
    private final String label;
    private final BlockingQueue<Entry<O>> queue = new LinkedBlockingQueue<>();
    private final ReentrantReadWriteLock gate = new ReentrantReadWriteLock();
    private boolean closed; // guarded by gate
    private final CompletableFuture<Void> stopped = new CompletableFuture<>();
    private final Thread thread;
    private Instant nextExpiry; // writer thread only (after start)

    /**
     * @param threadName the writer thread's name
     * @param store      what a submit after close names ("the store {@code store} is closed")
     * @param options    the batch size ({@code maxBatch}), the clock and the expiry's interval and retention
     * @param log        the writer's logger, for the loop's own lines
     * @param label      the loop's lines begin with it ("store writer")
     */
    protected GroupCommitLoop(String threadName, Object store, StoreOptions options, Logger log, String label) {
        this.store = store;
        this.options = options;
        this.nextExpiry = options.clock().instant();
        this.log = log;
        this.label = label;
        this.thread = new Thread(this::run, threadName);
        this.thread.setDaemon(true);
    }

    /** Starts the writer thread. */
    public final void start() {
        thread.start();
    }

    /** Queues an op; the writer completes the future. Fails at once when the loop is closed. */
    public final CompletableFuture<Void> submit(O op) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        return enqueue(new Entry<>(new Queued<>(op, done), null, done));
    }

    /**
     * Tests only: the thread waits on {@code release} before it takes the next entry, so writes pile up
     * behind it. The future completes once it was let go. Fails at once when the loop is closed.
     */
    public final CompletableFuture<Void> hold(CountDownLatch release) {
        return enqueue(new Entry<>(null, release, new CompletableFuture<>()));
    }

    private CompletableFuture<Void> enqueue(Entry<O> entry) {
        gate.readLock().lock();
        try {
            if (closed) {
                entry.done().completeExceptionally(new StoreException("the store " + store + " is closed"));
            } else {
                queue.add(entry);
            }
        } finally {
            gate.readLock().unlock();
        }
        return entry.done();
    }

    /**
     * Queues the stop last and, unless called on the loop's own thread, waits until everything
     * queued before it was handed to the writer and its last steps ran. Idempotent.
     */
    @Override
    public final void close() {
        gate.writeLock().lock();
        try {
            if (!closed) {
                closed = true;
                queue.add(new Entry<>(null, null, stopped));
            }
        } finally {
            gate.writeLock().unlock();
        }
        if (Thread.currentThread() != thread) {
            stopped.join();
        }
    }

    // ---- what the writer says: every one called on the writer thread ----

    /** When the records kept after a failure are next due to be written again; null while none is kept. */
    protected abstract Instant nextRetry();

    /**
     * Writes the batch's ops and completes the future of each (normally, or exceptionally when it
     * cannot be written; or later, an op the writer keeps). The batch may be empty (the stop alone).
     */
    protected abstract void commit(List<Queued<O>> batch);

    /**
     * Deletes at most {@link #EXPIRY_LIMIT} answered records settled before {@code cutoffMillis};
     * true when it deleted that many (the next are due at once). A failure is the writer's to log:
     * false, and the next try is an interval later.
     */
    protected abstract boolean expire(long cutoffMillis);

    /** Writes the records kept after a failure again, when due (or now, with {@code force}). */
    protected abstract void retryIfDue(boolean force);

    /** At close: the kept records that could not be written even now fail. */
    protected abstract void failKept();

    /** Closes the writer's connection: at close, last (and whenever a writer drops a lost one itself). */
    protected abstract void closeConnection();

    /**
     * Waits for a submitted op's future: a {@link StoreException} it failed with is thrown as it is,
     * any other failure wrapped in one.
     */
    public static void await(CompletableFuture<Void> done) {
        try {
            done.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof StoreException store) {
                throw store;
            }
            throw new StoreException(String.valueOf(e.getCause()), e.getCause());
        }
    }

    private void run() {
        List<Entry<O>> taken = new ArrayList<>();
        List<Queued<O>> batch = new ArrayList<>();
        boolean stop = false;
        while (!stop) {
            try {
                Entry<O> first = queue.poll(millisUntilDue(), TimeUnit.MILLISECONDS);
                if (first != null) {
                    taken.add(first); // before the housekeeping: a failure there must fail it, not drop it
                }
                expireIfDue();
                retryIfDue(false);
                if (first == null) {
                    continue;
                }
                if (first.hold() != null) {
                    taken.clear();
                    awaitUninterruptibly(first.hold());
                    first.done().complete(null);
                    continue;
                }
                queue.drainTo(taken, options.maxBatch() - 1);
                stop = taken.get(taken.size() - 1).stops();
                for (Entry<O> entry : taken) {
                    if (entry.write() != null) {
                        batch.add(entry.write());
                    }
                }
                commit(batch);
                for (Entry<O> entry : taken) {
                    if (entry.hold() != null) {
                        entry.done().complete(null); // behind an op it holds nothing
                    }
                }
            } catch (InterruptedException e) {
                // nobody interrupts this thread on purpose; close() stops it with the stop entry
                log.debug("{} interrupted; carrying on", label);
            } catch (Throwable e) {
                log.error("{}: unexpected failure", label, e);
                for (Entry<O> entry : taken) {
                    if (entry.stops()) {
                        stop = true; // a stop is never lost, even to a failure
                    } else {
                        entry.done().completeExceptionally(e);
                    }
                }
            } finally {
                taken.clear();
                batch.clear();
            }
        }
        try {
            retryIfDue(true);
            failKept();
        } catch (Throwable e) { // the last steps failing must not leave close() waiting for ever
            log.error("{}: unexpected failure while closing", label, e);
        } finally {
            try {
                closeConnection();
            } catch (Throwable e) {
                log.error("{}: unexpected failure closing the connection", label, e);
            }
            stopped.complete(null);
        }
    }

    /** How long the loop may wait for an op before expiry or a retry of kept records is due. */
    private long millisUntilDue() {
        long now = options.clock().millis();
        long millis = nextExpiry.toEpochMilli() - now;
        Instant retry = nextRetry();
        if (retry != null) {
            millis = Math.min(millis, retry.toEpochMilli() - now);
        }
        return Math.max(0, Math.min(millis, options.expiryInterval().toMillis()));
    }

    private void expireIfDue() {
        Instant now = options.clock().instant();
        if (now.isBefore(nextExpiry)) {
            return;
        }
        boolean more = expire(now.minus(options.answeredRetention()).toEpochMilli());
        nextExpiry = more ? now : now.plus(options.expiryInterval());
    }

    private static void awaitUninterruptibly(CountDownLatch release) {
        boolean interrupted = false;
        while (true) {
            try {
                release.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}

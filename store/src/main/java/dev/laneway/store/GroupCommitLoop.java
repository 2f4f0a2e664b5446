package dev.laneway.store;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
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
 *       what they call) touch it.</li>
 *   <li>Any thread may {@link #submit} an op: it goes into {@code queue} (a
 *       {@link LinkedBlockingQueue}) with a future that the writer completes on the thread.</li>
 *   <li>{@code gate} (read side: submit, write side: close) guards {@code closed}, so "still open? then
 *       enqueue" is atomic against close, which marks the loop closed and enqueues the writer's stop
 *       op under the write side. The stop op is therefore the last op ever queued: everything before it
 *       is handed to the writer before its last steps run and the thread exits.</li>
 * </ul>
 *
 * <p>The loop: wait for the first queued op at most {@link #millisUntilDue} ms, then the housekeeping
 * ({@link #expireIfDue}, {@link #retryIfDue}, after an idle wait too), then take whatever else is
 * queued at that moment (up to {@code maxBatch} in all) and hand the batch to {@link #commit}. A
 * hold op (tests) parks the thread on its latch instead, so writes pile up behind it. After the stop
 * op's batch: {@link #retryIfDue} once more, {@link #failKept}, {@link #closeConnection}. An unexpected failure
 * fails the batch's futures (the op taken before the housekeeping included) and is logged; a stop op in
 * the failed batch still stops the loop.
 *
 * @param <O> the writer's op type
 */
public abstract class GroupCommitLoop<O extends GroupCommitLoop.Op> implements AutoCloseable {

    /** What the loop asks of every op: whether it is a hold (tests) or the stop op. */
    public interface Op {

        /** A hold op's latch: the thread waits on it before taking the next op. Null for others. */
        default CountDownLatch hold() {
            return null;
        }

        /** Whether this is the stop op that {@link GroupCommitLoop#close} queues last. */
        default boolean stops() {
            return false;
        }
    }

    /** An op with the future its submitter waits on. */
    public record Queued<O>(O op, CompletableFuture<Void> done) { }

    private final Object store;
    private final int maxBatch;
    private final Supplier<O> stopOp;
    private final Logger log;
    private final String label;
    private final BlockingQueue<Queued<O>> queue = new LinkedBlockingQueue<>();
    private final ReentrantReadWriteLock gate = new ReentrantReadWriteLock();
    private boolean closed; // guarded by gate
    private final CompletableFuture<Void> stopped = new CompletableFuture<>();
    private final Thread thread;

    /**
     * @param threadName the writer thread's name
     * @param store      what a submit after close names ("the store {@code store} is closed")
     * @param maxBatch   ops per batch at the most
     * @param stopOp     makes the op {@link #close} queues last
     * @param log        the writer's logger, for the loop's own lines
     * @param label      the loop's lines begin with it ("store writer")
     */
    protected GroupCommitLoop(String threadName, Object store, int maxBatch, Supplier<O> stopOp, Logger log,
                              String label) {
        this.store = store;
        this.maxBatch = maxBatch;
        this.stopOp = stopOp;
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
        gate.readLock().lock();
        try {
            if (closed) {
                done.completeExceptionally(new StoreException("the store " + store + " is closed"));
            } else {
                queue.add(new Queued<>(op, done));
            }
        } finally {
            gate.readLock().unlock();
        }
        return done;
    }

    /**
     * Queues the stop op last and, unless called on the loop's own thread, waits until everything
     * queued before it was handed to the writer and its last steps ran. Idempotent.
     */
    @Override
    public final void close() {
        gate.writeLock().lock();
        try {
            if (!closed) {
                closed = true;
                queue.add(new Queued<>(stopOp.get(), stopped));
            }
        } finally {
            gate.writeLock().unlock();
        }
        if (Thread.currentThread() != thread) {
            stopped.join();
        }
    }

    // ---- what the writer says: every one called on the writer thread ----

    /** How long the loop may wait for an op before expiry or a retry is due (ms, at least 0). */
    protected abstract long millisUntilDue();

    /**
     * Writes the batch and completes the future of each op but the stop op (normally, or
     * exceptionally when it cannot be written; or later, an op the writer keeps).
     */
    protected abstract void commit(List<Queued<O>> batch);

    /** Deletes answered records past the retention, when due. */
    protected abstract void expireIfDue();

    /** Writes the records kept after a failure again, when due (or now, with {@code force}). */
    protected abstract void retryIfDue(boolean force);

    /** At close: the kept records that could not be written even now fail. */
    protected abstract void failKept();

    /** At close, last: closes the writer's connection. */
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
        List<Queued<O>> batch = new ArrayList<>();
        boolean stop = false;
        while (!stop) {
            try {
                Queued<O> first = queue.poll(millisUntilDue(), TimeUnit.MILLISECONDS);
                if (first != null) {
                    batch.add(first); // before the housekeeping: a failure there must fail it, not drop it
                }
                expireIfDue();
                retryIfDue(false);
                if (first == null) {
                    continue;
                }
                CountDownLatch hold = first.op().hold();
                if (hold != null) {
                    batch.clear();
                    awaitUninterruptibly(hold);
                    first.done().complete(null);
                    continue;
                }
                queue.drainTo(batch, maxBatch - 1);
                stop = batch.get(batch.size() - 1).op().stops();
                commit(batch);
            } catch (InterruptedException e) {
                // nobody interrupts this thread on purpose; close() stops it with the stop op
                log.debug("{} interrupted; carrying on", label);
            } catch (Throwable e) {
                log.error("{}: unexpected failure", label, e);
                for (Queued<O> queued : batch) {
                    if (queued.op().stops()) {
                        stop = true; // a stop is never lost, even to a failure
                    } else {
                        queued.done().completeExceptionally(e);
                    }
                }
            } finally {
                batch.clear();
            }
        }
        retryIfDue(true);
        failKept();
        closeConnection();
        stopped.complete(null);
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

package dev.laneway.core.channel;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs tasks one at a time and in submission order per key, different keys in parallel. A channel
 * hands each conversation's inbound work here, so a slow step (a sender or admin lookup) holds up
 * only its own conversation, which keeps its order. A busy key has one drain task on
 * {@code drains}; an idle key holds nothing (no thread, no map entry), so nothing needs closing.
 *
 * <p>Failures: whatever a task throws, {@link Error}s included (a {@code StackOverflowError} from a
 * regex on a pathological message), is logged with the key, and the key's next task runs.
 *
 * <p>Concurrency: {@code lock} guards {@code queues}, and is never held while a task or
 * {@code drains} runs. A key has an entry exactly while one drain owns it; only that drain runs the
 * key's tasks, and only it ends the ownership: it removes the entry when it finds the queue empty
 * (under the lock, so a later {@link #execute} starts a new drain), or, when something escapes it
 * (a failure while logging a failure), its {@code finally} hands the key's remaining tasks to a new
 * drain. So no exit path leaves a key owned by nobody, with its later tasks queued behind a drain
 * that never runs. If {@code drains} refuses a drain (shut down: the channel is stopping), the
 * key's queued tasks are dropped with a log line and {@link #execute} returns false.
 */
public final class KeyedSerialExecutor {

    private static final Logger log = LoggerFactory.getLogger(KeyedSerialExecutor.class);

    private final String owner;
    private final Executor drains;
    private final ReentrantLock lock = new ReentrantLock();
    // key -> tasks waiting for that key's drain; guarded by lock
    private final Map<String, ArrayDeque<Runnable>> queues = new HashMap<>();

    /**
     * @param owner  names the user in log lines (e.g. {@code "telegram"})
     * @param drains runs one drain per busy key (tests pass a direct or a manual executor)
     */
    public KeyedSerialExecutor(String owner, Executor drains) {
        this.owner = Objects.requireNonNull(owner, "owner");
        this.drains = Objects.requireNonNull(drains, "drains");
    }

    /** Each busy key drains on a fresh virtual thread named {@code threadName}. */
    public static KeyedSerialExecutor onVirtualThreads(String owner, String threadName) {
        ThreadFactory threads = Thread.ofVirtual().name(threadName).factory();   // safe from any thread
        return new KeyedSerialExecutor(owner, task -> threads.newThread(task).start());
    }

    /**
     * Queues {@code task} behind the key's earlier tasks. False when {@code drains} refused to run
     * the key's drain (stopping): the task, and any queued with it meanwhile, will not run.
     */
    public boolean execute(String key, Runnable task) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(task, "task");
        lock.lock();
        try {
            ArrayDeque<Runnable> queue = queues.get(key);
            if (queue != null) {
                queue.addLast(task);
                return true;
            }
            queue = new ArrayDeque<>();
            queue.addLast(task);
            queues.put(key, queue);
        } finally {
            lock.unlock();
        }
        return startDrain(key);
    }

    /** How many keys have a drain (tests: an idle key holds nothing). */
    int busyKeys() {
        lock.lock();
        try {
            return queues.size();
        } finally {
            lock.unlock();
        }
    }

    private boolean startDrain(String key) {
        try {
            drains.execute(() -> drain(key));
            return true;
        } catch (RuntimeException e) {
            int dropped = release(key);
            if (e instanceof RejectedExecutionException) {
                log.debug("{}: dropped {} task(s) for {}: stopping", owner, dropped, key);
            } else {
                log.warn("{}: dropped {} task(s) for {}: their drain could not start: {}", owner, dropped, key,
                        e.toString());
            }
            return false;
        }
    }

    private void drain(String key) {
        boolean released = false;
        try {
            for (Runnable task = next(key); task != null; task = next(key)) {
                runContained(key, task);
            }
            released = true;        // next() found the queue empty and removed the entry
        } finally {
            if (!released) {
                handOn(key);
            }
        }
    }

    private void runContained(String key, Runnable task) {
        try {
            task.run();
        } catch (Exception e) {
            log.warn("{}: a task for {} failed: {}", owner, key, e.toString(), e);
        } catch (Throwable e) {
            log.error("{}: a task for {} failed with an error; the next task for it runs: {}", owner, key,
                    e.toString(), e);
        }
    }

    /** The key's next task; null after removing the key's entry when there is none. */
    private Runnable next(String key) {
        lock.lock();
        try {
            ArrayDeque<Runnable> queue = queues.get(key);
            Runnable next = queue == null ? null : queue.pollFirst();
            if (next == null) {
                queues.remove(key);
            }
            return next;
        } finally {
            lock.unlock();
        }
    }

    /** A drain ended abnormally: a new one takes the key's remaining tasks, or the key is released. */
    private void handOn(String key) {
        boolean more;
        lock.lock();
        try {
            ArrayDeque<Runnable> queue = queues.get(key);
            more = queue != null && !queue.isEmpty();
            if (!more) {
                queues.remove(key);
            }
        } finally {
            lock.unlock();
        }
        if (more && startDrain(key)) {
            log.error("{}: the drain for {} ended abnormally; a new one runs its remaining tasks", owner, key);
        }
    }

    /** Removes the key's entry; returns how many tasks it held. */
    private int release(String key) {
        lock.lock();
        try {
            ArrayDeque<Runnable> queue = queues.remove(key);
            return queue == null ? 0 : queue.size();
        } finally {
            lock.unlock();
        }
    }
}

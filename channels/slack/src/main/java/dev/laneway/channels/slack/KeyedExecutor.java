package dev.laneway.channels.slack;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs tasks one at a time and in submission order per key, different keys in parallel, each key's
 * tasks on a virtual thread that exists only while the key has work. The inbound worker hands each
 * Slack conversation's messages here, so a slow {@code users.info} holds up only that conversation.
 * A task that throws is logged and the key's next task runs.
 *
 * <p>Concurrency: {@code lock} guards {@code queues}; a key has an entry exactly while one drain
 * thread owns it, and only that thread runs the key's tasks.
 */
final class KeyedExecutor {

    private static final Logger log = LoggerFactory.getLogger(KeyedExecutor.class);

    private final Executor drains;
    private final ReentrantLock lock = new ReentrantLock();
    // key -> tasks waiting for that key's drain thread; guarded by lock
    private final Map<String, ArrayDeque<Runnable>> queues = new HashMap<>();

    /** Each busy key drains on a fresh virtual thread named {@code name}. */
    static KeyedExecutor virtualThreads(String name) {
        ThreadFactory threads = Thread.ofVirtual().name(name).factory();   // safe from any thread
        return new KeyedExecutor(task -> threads.newThread(task).start());
    }

    /** @param drains runs one drain per busy key (tests pass a direct or a manual executor) */
    KeyedExecutor(Executor drains) {
        this.drains = drains;
    }

    /** Queues {@code task} behind the key's earlier tasks. */
    void execute(String key, Runnable task) {
        lock.lock();
        try {
            ArrayDeque<Runnable> queue = queues.get(key);
            if (queue != null) {
                queue.addLast(task);
                return;
            }
            queue = new ArrayDeque<>();
            queue.addLast(task);
            queues.put(key, queue);
        } finally {
            lock.unlock();
        }
        drains.execute(() -> drain(key));
    }

    private void drain(String key) {
        while (true) {
            Runnable next;
            lock.lock();
            try {
                ArrayDeque<Runnable> queue = queues.get(key);
                next = queue.pollFirst();
                if (next == null) {
                    queues.remove(key);
                    return;
                }
            } finally {
                lock.unlock();
            }
            try {
                next.run();
            } catch (RuntimeException | LinkageError e) {
                log.warn("a Slack inbound task for {} failed: {}", key, e.toString(), e);
            }
        }
    }
}

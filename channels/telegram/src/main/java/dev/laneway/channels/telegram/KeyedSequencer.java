package dev.laneway.channels.telegram;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs tasks on an executor, one at a time and in submission order per key, different keys in
 * parallel. The polling thread submits each chat's messages here, so a slow step (an admin lookup)
 * delays only that chat and never the polling thread. A task that throws is logged; the next one
 * runs.
 *
 * <p>Concurrency: {@code lock} guards {@code queues}; a key has an entry exactly while one drain
 * task owns it.
 */
final class KeyedSequencer {

    private static final Logger log = LoggerFactory.getLogger(KeyedSequencer.class);

    private final Executor executor;
    private final ReentrantLock lock = new ReentrantLock();
    // key -> tasks waiting for that key's drain task
    private final Map<String, ArrayDeque<Runnable>> queues = new HashMap<>();

    KeyedSequencer(Executor executor) {
        this.executor = executor;
    }

    /** Queues {@code task} behind the key's earlier tasks; false when the executor refused it (stopping). */
    boolean submit(String key, Runnable task) {
        boolean startDrain;
        lock.lock();
        try {
            ArrayDeque<Runnable> queue = queues.get(key);
            startDrain = queue == null;
            if (startDrain) {
                queue = new ArrayDeque<>();
                queues.put(key, queue);
            }
            queue.addLast(task);
        } finally {
            lock.unlock();
        }
        if (startDrain) {
            try {
                executor.execute(() -> drain(key));
            } catch (RuntimeException e) {
                // the executor is shut down: the channel is stopping
                lock.lock();
                try {
                    queues.remove(key);
                } finally {
                    lock.unlock();
                }
                log.debug("telegram: dropped inbound work for chat {} while stopping", key);
                return false;
            }
        }
        return true;
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
            } catch (RuntimeException e) {
                log.warn("telegram: inbound task for chat {} failed: {}", key, e.toString());
            }
        }
    }
}

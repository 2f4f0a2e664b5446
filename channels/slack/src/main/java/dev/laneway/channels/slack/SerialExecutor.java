package dev.laneway.channels.slack;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs tasks one at a time in submission order on a virtual thread that exists only while there
 * is work, so an idle channel holds no thread and nothing needs shutting down. A task that throws
 * is logged and the next one runs.
 *
 * <p>Concurrency: {@code lock} guards {@code tasks} and {@code draining}; exactly one drain thread
 * exists while {@code draining} is true, and it is the only thread that runs tasks.
 */
final class SerialExecutor implements Executor {

    private static final Logger log = LoggerFactory.getLogger(SerialExecutor.class);

    private final Thread.Builder threads;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();   // guarded by lock
    private boolean draining;                                        // guarded by lock

    SerialExecutor(String name) {
        this.threads = Thread.ofVirtual().name(name);
    }

    @Override
    public void execute(Runnable task) {
        lock.lock();
        try {
            tasks.addLast(task);
            if (draining) {
                return;
            }
            draining = true;
        } finally {
            lock.unlock();
        }
        threads.start(this::drain);
    }

    private void drain() {
        while (true) {
            Runnable next;
            lock.lock();
            try {
                next = tasks.pollFirst();
                if (next == null) {
                    draining = false;
                    return;
                }
            } finally {
                lock.unlock();
            }
            try {
                next.run();
            } catch (RuntimeException | LinkageError e) {
                log.warn("a Slack background task failed: {}", e.toString(), e);
            }
        }
    }
}

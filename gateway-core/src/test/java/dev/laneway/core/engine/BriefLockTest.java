package dev.laneway.core.engine;

import dev.laneway.core.lane.BriefLock;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.testing.Await;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link BriefLock} is a lock first: past its spin, a thread waits for the holder, on any thread. */
class BriefLockTest {

    @Test
    void aSecondThreadWaitsPastTheSpin_untilTheHolderLetsGo() throws Exception {
        BriefLock lock = new BriefLock();
        AtomicInteger inside = new AtomicInteger();
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
        try {
            lock.lock();
            Future<?> second = threads.submit(() -> {
                lock.lock();
                try {
                    inside.incrementAndGet();
                } finally {
                    lock.unlock();
                }
            });
            Await.until("the second thread queued on the lock", lock::hasQueuedThreads);
            assertEquals(0, inside.get(), "not while the lock is held");
            assertFalse(second.isDone());
            lock.unlock();
            second.get();
            assertEquals(1, inside.get());
            assertFalse(lock.isLocked());
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void itIsReentrant() {
        BriefLock lock = new BriefLock();
        lock.lock();
        lock.lock();
        assertEquals(2, lock.getHoldCount());
        lock.unlock();
        lock.unlock();
        assertTrue(!lock.isLocked());
    }
}

package dev.laneway.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * The loop both store writers extend (docs/decisions.md D248), with a writer that fails on purpose:
 * an unexpected {@code Error} fails the batch it hit and nothing else, a stop in that batch still
 * stops the loop, and a failure in the last steps still lets {@code close()} return and closes the
 * connection.
 */
@Timeout(30) // a regression hangs in close(): fail instead
class GroupCommitLoopTest {

    /** A writer that records what it was asked and throws an {@code Error} where told to. */
    private static final class FailingWriter extends GroupCommitLoop<String> {
        final List<String> committed = new CopyOnWriteArrayList<>();
        final List<String> steps = new CopyOnWriteArrayList<>();
        volatile String failOn;           // an op whose batch throws
        volatile boolean failCommitOfStop; // the batch that holds only the stop throws
        volatile boolean failKept;

        FailingWriter() {
            super("test-writer", "test", StoreOptions.defaults().withExpiryInterval(Duration.ofHours(1)),
                    LoggerFactory.getLogger(GroupCommitLoopTest.class), "test writer");
        }

        @Override
        protected Instant nextRetry() {
            return null;
        }

        @Override
        protected void commit(List<Queued<String>> batch) {
            if (batch.isEmpty() && failCommitOfStop) {
                throw new AssertionError("the stop's batch fails");
            }
            for (Queued<String> queued : batch) {
                if (queued.op().equals(failOn)) {
                    throw new AssertionError("a batch fails");
                }
            }
            for (Queued<String> queued : batch) {
                committed.add(queued.op());
                queued.done().complete(null);
            }
        }

        @Override
        protected boolean expire(long cutoffMillis) {
            return false;
        }

        @Override
        protected void retryIfDue(boolean force) {
            if (force) {
                steps.add("retry");
            }
        }

        @Override
        protected void failKept() {
            steps.add("failKept");
            if (failKept) {
                throw new AssertionError("failing the kept records fails");
            }
        }

        @Override
        protected void closeConnection() {
            steps.add("closeConnection");
        }
    }

    @Test
    void anErrorFailsItsBatchOnly_andTheLoopGoesOn() throws Exception {
        FailingWriter writer = new FailingWriter();
        writer.failOn = "bad";
        CountDownLatch release = new CountDownLatch(1);
        writer.start();
        CompletableFuture<Void> held = writer.hold(release);
        CompletableFuture<Void> good = writer.submit("good");
        CompletableFuture<Void> bad = writer.submit("bad");
        release.countDown(); // both ops go in one batch behind the hold
        held.get(10, TimeUnit.SECONDS);
        ExecutionException failed = assertThrows(ExecutionException.class, () -> bad.get(10, TimeUnit.SECONDS));
        assertInstanceOf(AssertionError.class, failed.getCause());
        assertTrue(good.isCompletedExceptionally(), "its batch fails as one");
        writer.submit("after").get(10, TimeUnit.SECONDS);
        writer.close();
        assertEquals(List.of("after"), writer.committed);
        assertEquals(List.of("retry", "failKept", "closeConnection"), writer.steps);
    }

    @Test
    void aStopInAFailedBatch_stillStopsTheLoop() {
        FailingWriter writer = new FailingWriter();
        writer.failCommitOfStop = true;
        writer.start();
        writer.close(); // returns: the stop is not lost to the failure
        assertEquals(List.of("retry", "failKept", "closeConnection"), writer.steps);
        assertThrows(ExecutionException.class, () -> writer.submit("late").get(10, TimeUnit.SECONDS),
                "a closed loop refuses ops");
    }

    @Test
    void aFailureInTheLastSteps_stillClosesTheConnection_andCloseReturns() {
        FailingWriter writer = new FailingWriter();
        writer.failKept = true;
        writer.start();
        writer.close();
        assertEquals(List.of("retry", "failKept", "closeConnection"), writer.steps);
    }
}

package dev.laneway.core.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import dev.laneway.core.testing.LogCapture;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Per-key order, keys in parallel, and no failure of any kind leaves a key stuck. */
class KeyedSerialExecutorTest {

    private final List<Runnable> drains = new ArrayList<>();           // drains run when the test says
    private final KeyedSerialExecutor executor = new KeyedSerialExecutor("test", drains::add);
    private final List<String> ran = new ArrayList<>();
    private LogCapture log;

    @BeforeEach
    void capture() {
        log = LogCapture.of(KeyedSerialExecutor.class);
    }

    @AfterEach
    void release() {
        log.close();
    }

    private List<String> logged(Level level) {
        return log.messages(level);
    }

    private Runnable record(String name) {
        return () -> ran.add(name);
    }

    @Test
    void tasksOfOneKeyRunInOrder_onOneDrain_andOtherKeysDoNotWaitForIt() {
        executor.execute("a", record("a1"));
        executor.execute("a", record("a2"));
        executor.execute("b", record("b1"));
        assertEquals(2, drains.size(), "one drain per busy key");

        drains.get(1).run();
        assertEquals(List.of("b1"), ran, "b ran while a's drain had not even started");
        drains.get(0).run();
        assertEquals(List.of("b1", "a1", "a2"), ran);
        assertEquals(0, executor.busyKeys(), "an idle key holds nothing");

        executor.execute("a", record("a3"));
        assertEquals(3, drains.size(), "a drained key starts a new drain");
        drains.get(2).run();
        assertEquals(List.of("b1", "a1", "a2", "a3"), ran);
    }

    @Test
    void aTaskThatThrowsAnException_isLogged_andTheKeysNextTaskRuns() {
        executor.execute("a", () -> {
            throw new IllegalStateException("boom");
        });
        executor.execute("a", record("a2"));
        drains.get(0).run();
        assertEquals(List.of("a2"), ran);
        assertEquals(List.of("test: a task for a failed: java.lang.IllegalStateException: boom"), logged(Level.WARN));
    }

    @Test
    void aTaskThatThrowsAnError_isLoggedAsAnError_andLaterTasksForThatKeyStillRunInOrder() {
        executor.execute("chat", record("1"));
        executor.execute("chat", () -> {
            throw new StackOverflowError("a pathological regex");
        });
        executor.execute("chat", record("3"));
        executor.execute("chat", () -> {
            throw new OutOfMemoryError("simulated");
        });
        executor.execute("chat", record("5"));
        drains.get(0).run();
        executor.execute("chat", record("6"));
        drains.get(1).run();

        assertEquals(List.of("1", "3", "5", "6"), ran);
        assertEquals(2, logged(Level.ERROR).size(), logged(Level.ERROR).toString());
        assertTrue(logged(Level.ERROR).get(0).contains("StackOverflowError: a pathological regex"));
        assertEquals(0, executor.busyKeys());
    }

    @Test
    void whenAFailureEscapesTheDrainItself_aNewDrainTakesTheKeysRemainingTasks_inOrder() {
        executor.execute("chat", record("1"));
        executor.execute("chat", () -> {
            throw new Unprintable();      // even logging it fails
        });
        executor.execute("chat", record("3"));
        executor.execute("chat", record("4"));

        assertThrows(IllegalStateException.class, () -> drains.get(0).run());
        assertEquals(List.of("1"), ran);
        assertEquals(2, drains.size(), "the key's remaining tasks were handed to a new drain");
        executor.execute("chat", record("5"));
        assertEquals(2, drains.size(), "the key is still owned: no second drain for it");
        drains.get(1).run();
        assertEquals(List.of("1", "3", "4", "5"), ran);
        assertEquals(0, executor.busyKeys());
    }

    @Test
    void whenAFailureEscapesTheLastTask_theKeyIsReleased_andTheNextTaskStartsANewDrain() {
        executor.execute("chat", () -> {
            throw new Unprintable();
        });
        assertThrows(IllegalStateException.class, () -> drains.get(0).run());
        assertEquals(0, executor.busyKeys(), "nothing left: the key is released, not left owned by nobody");
        executor.execute("chat", record("later"));
        drains.get(1).run();
        assertEquals(List.of("later"), ran);
    }

    @Test
    void aRefusedDrain_dropsItsTasks_returnsFalse_andDoesNotLeaveTheKeyOwned() {
        KeyedSerialExecutor stopping = new KeyedSerialExecutor("test", task -> {
            throw new RejectedExecutionException("shut down");
        });
        assertFalse(stopping.execute("a", record("never")));
        assertFalse(stopping.execute("a", record("never")), "a refused key is not left owned");
        assertEquals(0, stopping.busyKeys());
        assertEquals(List.of(), ran);
    }

    @Test
    void onVirtualThreads_runsEachKeyInOrder() throws Exception {
        KeyedSerialExecutor threads = KeyedSerialExecutor.onVirtualThreads("test", "test-drain");
        List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        for (int i = 0; i < 100; i++) {
            String item = Integer.toString(i);
            threads.execute("k", () -> seen.add(item));
        }
        threads.execute("k", () -> {
            throw new StackOverflowError();
        });
        threads.execute("k", done::countDown);
        assertTrue(done.await(10, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(java.util.stream.IntStream.range(0, 100).mapToObj(Integer::toString).toList(), seen);
    }

    /** An error whose description itself throws, so even logging it fails. */
    private static final class Unprintable extends Error {
        @Override
        public String toString() {
            throw new IllegalStateException("cannot describe myself");
        }

        @Override
        public String getMessage() {
            throw new IllegalStateException("cannot describe myself");
        }
    }
}

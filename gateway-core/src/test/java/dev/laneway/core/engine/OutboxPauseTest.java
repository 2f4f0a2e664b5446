package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Route;
import dev.laneway.core.channel.SendFailure;
import dev.laneway.core.testing.Await;
import dev.laneway.core.testing.FakeChannel;
import dev.laneway.core.testing.LogCapture;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two 429s for one chat at once (a typing action's and a message's, on two outbox threads): the
 * chat waits out the longer one, whichever came first.
 */
class OutboxPauseTest {

    private final ManualTime time = new ManualTime();
    private final FakeChannel channel = new FakeChannel("test");
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final AtomicInteger busy = new AtomicInteger();   // outbox tasks not finished
    private final Executor executor = task -> {
        busy.incrementAndGet();
        threads.execute(() -> {
            try {
                task.run();
            } finally {
                busy.decrementAndGet();
            }
        });
    };
    private final Outbox outbox = new Outbox(executor, time, time, name -> channel, GatewayObserver.NONE);
    private final Route route = new Route("test", "default", "ann", null, "m1");
    private final LogCapture log = LogCapture.of(Outbox.class);
    private final CountDownLatch typingStarted = new CountDownLatch(1);
    private final CountDownLatch releaseTyping = new CountDownLatch(1);

    @AfterEach
    void close() {
        releaseTyping.countDown();
        threads.shutdownNow();
        log.close();
    }

    /** A typing action that fails with {@code typing429} once the message has met its own 429. */
    private void racingPauses(Duration typing429, Duration send429) throws InterruptedException {
        channel.duringTyping(() -> {
            typingStarted.countDown();
            try {
                releaseTyping.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        channel.failNextTyping(SendFailure.rateLimited(typing429, "HTTP 429"));
        channel.failNextSends(SendFailure.rateLimited(send429, "HTTP 429"));
        outbox.typing(route);
        assertTrue(typingStarted.await(20, TimeUnit.SECONDS));
        outbox.send(route, "answer", () -> true);
        time.awaitPending(send429);
        releaseTyping.countDown();
        Await.until("the typing action's 429", () -> log.warnings().stream().anyMatch(line -> line.contains("typing")));
        Await.until("the outbox idle", () -> busy.get() == 0);
    }

    private void advanceAndSettle(Duration by) {
        time.advance(by);
        Await.until("the outbox idle", () -> busy.get() == 0);
    }

    @Test
    void aShorterPauseThatComesLater_neverShortensALongerOne() throws Exception {
        racingPauses(Duration.ofSeconds(5), Duration.ofSeconds(60));
        advanceAndSettle(Duration.ofSeconds(5));
        assertEquals(List.of("answer"), channel.attempts(), "still waiting out the 60 s");
        advanceAndSettle(Duration.ofSeconds(55));
        Await.until("the answer", () -> channel.texts().equals(List.of("answer")));
    }

    @Test
    void aLongerPauseThatComesLater_wins() throws Exception {
        racingPauses(Duration.ofSeconds(60), Duration.ofSeconds(5));
        advanceAndSettle(Duration.ofSeconds(5));
        assertEquals(List.of("answer"), channel.attempts(), "the typing action's 60 s pause holds");
        advanceAndSettle(Duration.ofSeconds(55));
        Await.until("the answer", () -> channel.texts().equals(List.of("answer")));
    }
}

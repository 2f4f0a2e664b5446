package dev.laneway.agents.openai;

import static dev.laneway.agents.openai.Responses.sse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.engine.Gateway;
import dev.laneway.core.engine.GatewaySettings;
import dev.laneway.core.lane.LaneSnapshot;
import dev.laneway.core.testing.FakeChannel;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A model server that answers with nothing but {@code : ping} keep-alives holds the run open for
 * ever: each ping is progress for the idle timeout. The agent's run timeout ends it: the gateway
 * aborts the run (the connection is closed), frees its lanes and sends the failure sentence. The
 * idle timeout is set above the run timeout here, as keep-alives would keep re-arming it anyway.
 */
class OpenAiRunDeadlineTest {

    private final Harness h = new Harness();
    private final FakeChannel channel = new FakeChannel("test");
    private final ExecutorService runs = Executors.newVirtualThreadPerTaskExecutor();
    private final Gateway gateway = Gateway.builder()
            .settings(GatewaySettings.defaults())
            .clock(InstantSource.fixed(Harness.NOW))
            .scheduler(h.scheduler)
            .executor(runs)
            .outboxExecutor(Runnable::run)
            .agent(h.agent(h.settings().withTimeout(Duration.ofMinutes(10)).withRunTimeout(Duration.ofMinutes(5))))
            .store(h.store)
            .channel(channel)
            .build();

    @AfterEach
    void close() throws InterruptedException {
        gateway.shutdown(Duration.ZERO);
        runs.shutdownNow();
        h.close();
    }

    @Test
    void aStreamOfOnlyKeepAlives_isCutAtTheRunTimeout_andTheUserGetsTheFailureSentence() throws Exception {
        gateway.start();
        CompletableFuture<Void> disconnected = new CompletableFuture<>();
        h.fake.then(sse().pingsUntilDisconnected(disconnected));

        gateway.accept(InboundMessage.builder("test").text("hello?").platformMessageId("m1").chatId("chat")
                .senderId("user").senderName("User").receivedAt(Harness.NOW).build());
        h.fake.request(0);
        h.scheduler.awaitPending(Duration.ofMinutes(5));
        h.scheduler.advance(Duration.ofMinutes(5).minusMillis(1));
        assertEquals(List.of(), channel.texts());

        h.scheduler.advance(Duration.ofMillis(1));
        assertEquals(List.of("⚠️ Sorry, something went wrong while answering. (timed out after 5 min)"), channel.texts());
        disconnected.get(10, TimeUnit.SECONDS); // the run was aborted: the agent closed the connection
        assertTrue(gateway.awaitIdle(Duration.ofSeconds(10)));
        assertEquals(0, gateway.lanes().stream().mapToInt(LaneSnapshot::active).sum(), "every lane slot is free");
        assertEquals(1, h.fake.requestCount(), "a timed-out run is not retried");
    }
}

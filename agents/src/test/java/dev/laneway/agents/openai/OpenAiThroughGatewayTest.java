package dev.laneway.agents.openai;

import static dev.laneway.agents.openai.Responses.status;
import static dev.laneway.agents.openai.Responses.streamedText;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.engine.Gateway;
import dev.laneway.core.engine.GatewayObserver;
import dev.laneway.core.engine.GatewaySettings;
import dev.laneway.core.testing.FakeChannel;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The openai agent behind a real {@link Gateway}: what the user sees when the model provider fails. */
class OpenAiThroughGatewayTest {

    private final Harness h = new Harness();
    private final FakeChannel channel = new FakeChannel("test");
    private final ExecutorService runs = Executors.newVirtualThreadPerTaskExecutor();
    private final AtomicInteger retries = new AtomicInteger();
    private final Gateway gateway = Gateway.builder()
            .settings(GatewaySettings.defaults())
            .clock(InstantSource.fixed(Harness.NOW))
            .scheduler(h.scheduler)
            .executor(runs)
            .outboxExecutor(Runnable::run) // replies are sent before the run counts as ended
            .agent(h.agent(h.settings()))
            .store(h.store)
            .observer(new GatewayObserver() {
                @Override
                public void agentRetried(String agent) {
                    retries.incrementAndGet();
                }
            })
            .channel(channel)
            .build();

    @AfterEach
    void close() throws InterruptedException {
        gateway.shutdown(Duration.ZERO);
        runs.shutdownNow();
        h.close();
    }

    private void say(String text) {
        gateway.accept(InboundMessage.builder("test").text(text).platformMessageId("m-" + text).chatId("chat")
                .senderId("user").senderName("User").receivedAt(Harness.NOW).build());
    }

    @Test
    void repeatedServerErrors_reachTheUserAsTheFailureSentence_afterTheRetriesWereCounted() throws Exception {
        gateway.start();
        h.fake.then(status(500)).then(status(503)).then(status(500));

        say("hello?");
        h.scheduler.awaitPending(Duration.ofSeconds(1));
        h.scheduler.advance(Duration.ofSeconds(1));
        h.scheduler.awaitPending(Duration.ofSeconds(2));
        h.scheduler.advance(Duration.ofSeconds(2));

        assertTrue(gateway.awaitIdle(Duration.ofSeconds(10)));
        assertEquals(List.of("⚠️ Sorry, something went wrong while answering. (HTTP 500)"), channel.texts());
        assertEquals(3, h.fake.requestCount());
        assertEquals(2, retries.get(), "laneway_agent_retries_total counts these");
    }

    @Test
    void aRetryThatSucceeds_answersWithoutAFailureNotice() throws Exception {
        gateway.start();
        h.fake.then(status(429, "Retry-After", "3")).then(streamedText("Hi ", "there."));

        say("hello?");
        h.scheduler.awaitPending(Duration.ofSeconds(3));
        h.scheduler.advance(Duration.ofSeconds(3));

        assertTrue(gateway.awaitIdle(Duration.ofSeconds(10)));
        assertEquals(List.of("Hi there."), channel.texts());
        assertEquals(1, retries.get());
    }
}

package dev.laneway.agents.openai;

import static dev.laneway.agents.openai.Responses.finish;
import static dev.laneway.agents.openai.Responses.sse;
import static dev.laneway.agents.openai.Responses.text;
import static dev.laneway.agents.testing.Runs.outcome;
import static dev.laneway.agents.testing.Runs.request;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunOutcome;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code timeoutMs} bounds each wait for progress (headers, then every gap between chunks), not the whole answer. */
class OpenAiTimeoutTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final Duration JUST_UNDER = TIMEOUT.minusMillis(1);

    private final Harness h = new Harness();

    @AfterEach
    void close() {
        h.close();
    }

    /** Without retries: a timeout then ends the run as the provider's unavailability (docs/behaviour.md §14.4). */
    private AgentRun start() {
        return h.agent(h.settings().withTimeout(TIMEOUT).withMaxRetries(0)).start(request("tell me everything"), h.events);
    }

    @Test
    void slowButSteadyStream_longerThanTheTimeout_isAnsweredInFull() {
        CompletableFuture<Void> second = new CompletableFuture<>();
        CompletableFuture<Void> third = new CompletableFuture<>();
        h.fake.then(sse().data(text("one ")).await(second).data(text("two ")).await(third)
                .data(text("three")).data(finish("stop")).done());
        AgentRun run = start();

        h.events.awaitDeltas(1);
        h.scheduler.advance(JUST_UNDER);
        second.complete(null);
        h.events.awaitDeltas(2);
        h.scheduler.advance(JUST_UNDER);
        third.complete(null);

        assertEquals(RunOutcome.Completed.clean(), outcome(run), "the stream took 2 x timeoutMs - 2 ms in all");
        assertEquals(List.of("one two three"), h.events.replies());
    }

    @Test
    void streamThatStallsBetweenChunks_failsWithTimeout() {
        h.fake.then(sse().data(text("one ")).await(new CompletableFuture<>()));
        AgentRun run = start();

        h.events.awaitDeltas(1);
        h.scheduler.advance(TIMEOUT);

        assertEquals(RunOutcome.Failed.unavailable("timeout", List.of()), outcome(run));
        assertEquals(List.of(), h.events.replies());
    }

    @Test
    void serverThatNeverSendsHeaders_failsWithTimeoutAfterOneIdlePeriod() {
        h.fake.then(Responses.hang());
        AgentRun run = start();

        h.fake.request(0);
        h.scheduler.advance(JUST_UNDER);
        h.scheduler.advance(Duration.ofMillis(1));

        assertEquals(RunOutcome.Failed.unavailable("timeout", List.of()), outcome(run));
    }
}

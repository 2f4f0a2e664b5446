package dev.laneway.agents.openai;

import static dev.laneway.agents.openai.Responses.after;
import static dev.laneway.agents.openai.Responses.sse;
import static dev.laneway.agents.openai.Responses.status;
import static dev.laneway.agents.openai.Responses.text;
import static dev.laneway.agents.testing.Runs.outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.SessionKey;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunOutcome;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OpenAiAbortTest {

    private final Harness h = new Harness();

    @AfterEach
    void close() {
        h.close();
    }

    @Test
    void abortMidStream_closesTheConnectionAndDeliversNothingMore() throws Exception {
        CompletableFuture<Void> resume = new CompletableFuture<>();
        CompletableFuture<Void> disconnected = new CompletableFuture<>();
        h.fake.then(sse().data(text("Hel")).await(resume).untilDisconnected(disconnected));
        AgentRun run = h.start("tell me a long story");

        h.events.awaitDeltas(1);
        run.abort();
        RunOutcome outcome = outcome(run);
        resume.complete(null);

        disconnected.get(10, TimeUnit.SECONDS); // the server saw the client go away
        assertEquals(new RunOutcome.Aborted(List.of()), outcome);
        assertEquals(List.of("Hel"), h.events.deltas());
        assertEquals(List.of(), h.events.replies());
        assertEquals(List.of(), h.store.history(SessionKey.of("console:local"), 10));
    }

    @Test
    void abortBeforeTheResponseHeaders_closesTheConnection() throws Exception {
        CompletableFuture<Void> answer = new CompletableFuture<>();
        CompletableFuture<Void> disconnected = new CompletableFuture<>();
        h.fake.then(after(answer, sse().untilDisconnected(disconnected)));
        AgentRun run = h.start("hello?");

        h.fake.request(0); // the server holds the headers back
        run.abort();
        RunOutcome outcome = outcome(run);
        answer.complete(null);

        disconnected.get(10, TimeUnit.SECONDS); // the server's writes fail: the client went away
        assertEquals(new RunOutcome.Aborted(List.of()), outcome);
        assertEquals(List.of(), h.events.deltas());
    }

    @Test
    void abortDuringRetryBackoff_endsTheRunWithoutAnotherRequest() {
        h.fake.then(status(503));
        AgentRun run = h.start("hello?");

        h.scheduler.awaitPending(Duration.ofSeconds(1));
        run.abort();
        run.abort();

        assertEquals(new RunOutcome.Aborted(List.of()), outcome(run));
        assertEquals(1, h.fake.requestCount());
    }
}

package dev.laneway.agents.openai;

import static dev.laneway.agents.openai.Responses.hang;
import static dev.laneway.agents.openai.Responses.json;
import static dev.laneway.agents.openai.Responses.sse;
import static dev.laneway.agents.openai.Responses.status;
import static dev.laneway.agents.openai.Responses.streamedText;
import static dev.laneway.agents.openai.Responses.text;
import static dev.laneway.agents.testing.Runs.outcome;
import static dev.laneway.agents.testing.Runs.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;


import dev.laneway.core.SessionKey;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.settings.OpenAiSettings;
import dev.laneway.core.testing.LogCapture;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OpenAiErrorsTest {

    private final Harness h = new Harness();

    @AfterEach
    void close() {
        h.close();
    }

    @Test
    void tooManyRequests_isRetriedAfterTheRetryAfterDelay() {
        h.fake.then(status(429, "Retry-After", "7")).then(streamedText("ok"));
        AgentRun run = h.start("hi");

        h.scheduler.awaitPending(Duration.ofSeconds(7));
        assertEquals(1, h.fake.requestCount());
        h.scheduler.advance(Duration.ofSeconds(7));

        assertEquals(RunOutcome.Completed.clean(), outcome(run));
        assertEquals(List.of("ok"), h.events.replies());
        assertEquals(2, h.fake.requestCount());
        assertEquals(List.of("retry 1 of 2 after HTTP 429"), h.events.retries());
    }

    @Test
    void tooManyRequests_withAnHttpDateRetryAfter_waitsUntilThatTime() {
        h.fake.then(status(429, "Retry-After", "Wed, 02 Jan 2030 03:04:35 GMT")).then(streamedText("ok"));
        AgentRun run = h.start("hi"); // the harness clock says 2030-01-02T03:04:05Z

        h.scheduler.awaitPending(Duration.ofSeconds(30));
        h.scheduler.advance(Duration.ofSeconds(30));

        assertEquals(RunOutcome.Completed.clean(), outcome(run));
        assertEquals(2, h.fake.requestCount());
    }

    @Test
    void repeatedServerErrors_areRetriedWithExponentialBackoffThenFailAsUnavailable() {
        h.fake.then(status(500)).then(status(502)).then(status(500));
        AgentRun run = h.start("hi");

        h.scheduler.awaitPending(Duration.ofSeconds(1));
        h.scheduler.advance(Duration.ofSeconds(1));
        h.scheduler.awaitPending(Duration.ofSeconds(2));
        h.scheduler.advance(Duration.ofSeconds(2));

        assertEquals(RunOutcome.Failed.unavailable("HTTP 500", List.of()), outcome(run),
                "not retried by the engine, but another agent (a fallback) may answer");
        assertEquals(3, h.fake.requestCount());
        assertEquals(List.of(), h.events.replies());
        assertEquals(List.of("retry 1 of 2 after HTTP 500", "retry 2 of 2 after HTTP 502"), h.events.retries());
    }

    @Test
    void everyRetry_isReportedToTheRunEventsBeforeItsBackoff_withoutTheApiKey() {
        h.fake.then(status(503)).then(streamedText("ok"));
        AgentRun run = h.agent(h.settings().withApiKey("sk-secret-123")).start(request("hi"), h.events);

        h.scheduler.awaitPending(Duration.ofSeconds(1));
        assertEquals(List.of("retry 1 of 2 after HTTP 503"), h.events.retries());
        h.scheduler.advance(Duration.ofSeconds(1));

        assertEquals(RunOutcome.Completed.clean(), outcome(run));
        assertEquals(List.of("retry 1 of 2 after HTTP 503"), h.events.retries());
    }

    @Test
    void rejectedApiKey_isReportedToTheUserWithTheFixedSentence() {
        h.fake.then(status(401));

        RunOutcome outcome = outcome(h.agent(h.settings().withApiKey("sk-wrong")).start(request("hi"), h.events));

        assertEquals(new RunOutcome.Reported("HTTP 401", List.of()), outcome);
        assertEquals(List.of("⚠️ The model provider rejected the API key."), h.events.replies());
        assertEquals(1, h.fake.requestCount());
    }

    @Test
    void aProviderThatEchoesTheRejectedKey_neverGetsItIntoTheLog() {
        assertKeyNeverLogged("sk-secret-0123456789", "");
    }

    @Test
    void aKeyEchoedAcrossTheLoggedLength_isNotLoggedInPartEither() {
        // the log keeps 300 characters of the body; this key straddles that cut
        assertKeyNeverLogged("sk-proj-" + "x".repeat(120), "y".repeat(230));
    }

    private void assertKeyNeverLogged(String key, String padding) {
        h.fake.then((exchange, fake) -> FakeOpenAi.send(exchange, 401, "application/json",
                "{\"error\":{\"message\":\"" + padding + "Incorrect API key provided: " + key + ".\"}}"));
        List<String> lines;
        try (LogCapture logged = LogCapture.of(ChatClient.class)) {
            outcome(h.agent(h.settings().withApiKey(key)).start(request("hi"), h.events));
            lines = logged.lines().stream().map(LogCapture.Line::message).toList();
        }
        assertTrue(lines.stream().anyMatch(line -> line.contains("HTTP 401") && line.contains("Incorrect API key provided: ***")),
                lines.toString());
        String keyStart = key.substring(0, 12);
        assertTrue(lines.stream().noneMatch(line -> line.contains(keyStart)), lines.toString());
    }

    @Test
    void credentialsInTheBaseUrl_areMaskedInTheLoggedEndpoint() {
        h.fake.then(status(401));
        String baseUrl = h.fake.baseUrl().replace("://", "://bob:pw-SECRET-42@");
        List<String> lines;
        try (LogCapture logged = LogCapture.of(ChatClient.class)) {
            outcome(h.agent(OpenAiSettings.defaults("assistant", baseUrl, "test-model")).start(request("hi"), h.events));
            lines = logged.lines().stream().map(LogCapture.Line::message).toList();
        }
        assertTrue(lines.stream().anyMatch(line -> line.contains("HTTP 401 from http://***@127.0.0.1:")), lines.toString());
        assertTrue(lines.stream().noneMatch(line -> line.contains("pw-SECRET")), lines.toString());
    }

    @Test
    void forbidden_isAlsoAReportedKeyRejection() {
        h.fake.then(status(403));

        assertEquals(new RunOutcome.Reported("HTTP 403", List.of()), outcome(h.start("hi")));
        assertEquals(List.of("⚠️ The model provider rejected the API key."), h.events.replies());
    }

    @Test
    void otherClientErrors_failAtOnce() {
        h.fake.then(status(404));

        assertEquals(RunOutcome.Failed.of("HTTP 404", false), outcome(h.start("hi")));
        assertEquals(1, h.fake.requestCount());
    }

    @Test
    void malformedSseData_failsWithMalformedResponse() {
        h.fake.then(sse().data(text("ok so far")).raw("data: {\"choices\": [ nope\n\n").done());

        assertEquals(RunOutcome.Failed.of("malformed response", false), outcome(h.start("hi")));
        assertEquals(List.of(), h.events.replies());
    }

    @Test
    void malformedJsonBody_failsWithMalformedResponse() {
        h.fake.then(json("<html>gateway error</html>"));

        RunOutcome outcome = outcome(h.agent(h.settings().withStream(false)).start(request("hi"), h.events));

        assertEquals(RunOutcome.Failed.of("malformed response", false), outcome);
    }

    @Test
    void streamEndingWithoutDoneOrFinishReason_isRetried_andFailsAsUnavailableWhenItKeepsHappening() {
        h.fake.then(sse().data(text("half an ans"))).then(sse().data(text("half again")));
        AgentRun run = h.agent(h.settings().withMaxRetries(1)).start(request("hi"), h.events);

        h.scheduler.awaitPending(Duration.ofSeconds(1));
        h.scheduler.advance(Duration.ofSeconds(1));

        assertEquals(RunOutcome.Failed.unavailable("stream interrupted", List.of()), outcome(run));
        assertEquals(List.of("retry 1 of 1 after stream interrupted"), h.events.retries());
        assertEquals(List.of(), h.events.replies());
    }

    @Test
    void aTimeoutIsRetriedLikeA5xx_andTheRetryMayAnswer() {
        h.fake.then(hang()).then(streamedText("late but fine"));
        AgentRun run = h.start("hi");

        h.fake.request(0);
        h.scheduler.advance(OpenAiSettings.DEFAULT_TIMEOUT);
        h.scheduler.awaitPending(Duration.ofSeconds(1));
        h.scheduler.advance(Duration.ofSeconds(1));

        assertEquals(RunOutcome.Completed.clean(), outcome(run));
        assertEquals(List.of("retry 1 of 2 after timeout"), h.events.retries());
        assertEquals(List.of("late but fine"), h.events.replies());
    }

    @Test
    void streamEndingAfterFinishReasonWithoutDone_isAcceptedAsComplete() {
        h.fake.then(sse().data(text("fine")).data(Responses.finish("stop")));

        assertEquals(RunOutcome.Completed.clean(), outcome(h.start("hi")));
        assertEquals(List.of("fine"), h.events.replies());
    }

    @Test
    void silentServer_failsWithTimeoutWhenTheWatchdogFires() {
        h.fake.then(hang());
        AgentRun run = h.agent(h.settings().withMaxRetries(0)).start(request("hi"), h.events);

        h.fake.request(0);
        h.scheduler.advance(OpenAiSettings.DEFAULT_TIMEOUT);

        assertEquals(RunOutcome.Failed.unavailable("timeout", List.of()), outcome(run));
    }

    @Test
    void refusedConnection_failsWithConnectionRefused() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        OpenAiSettings settings = OpenAiSettings.defaults("assistant", "http://127.0.0.1:" + closedPort + "/v1", "m")
                .withMaxRetries(0);

        RunOutcome outcome = outcome(h.agent(settings).start(request("hi"), h.events));

        assertEquals(RunOutcome.Failed.unavailable("connection refused", List.of()), outcome);
    }

    @Test
    void failedTurnThatDeliveredNothing_leavesNoHistory() {
        h.fake.then(status(400));

        outcome(h.start("hi"));

        assertEquals(List.of(), h.store.history(SessionKey.of("console:local"), 10));
    }
}

package dev.laneway.agents.openai;

import static dev.laneway.agents.openai.Responses.json;
import static dev.laneway.agents.openai.Responses.message;
import static dev.laneway.agents.openai.Responses.streamedText;
import static dev.laneway.agents.testing.Runs.outcome;
import static dev.laneway.agents.testing.Runs.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.SteerResult;
import dev.laneway.agents.testing.Runs;
import dev.laneway.core.agent.settings.OpenAiSettings;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OpenAiReplyTest {

    private final Harness h = new Harness();

    @AfterEach
    void close() {
        h.close();
    }

    @Test
    void streaming_sendsEachPieceAsADeltaAndTheWholeTextOnceAsTheReply() {
        h.fake.then(streamedText("Hel", "lo", " world"));

        RunOutcome outcome = outcome(h.start("hi"));

        assertEquals(RunOutcome.Completed.clean(), outcome);
        assertEquals(List.of("Hel", "lo", " world"), h.events.deltas());
        assertEquals(List.of("Hello world"), h.events.replies());
    }

    @Test
    void streamingRequest_carriesModelStreamFlagSystemPromptAndPrompt() {
        h.fake.then(streamedText("ok"));

        outcome(h.start("what is up?"));

        JsonNode body = h.fake.request(0).body();
        assertEquals("test-model", body.get("model").asText());
        assertEquals(true, body.get("stream").asBoolean());
        assertEquals(FakeOpenAi.JSON.valueToTree(List.of(
                new Msg("system", Harness.SYSTEM), new Msg("user", "what is up?"))), body.get("messages"));
        assertFalse(body.has("tools"));
        assertEquals("text/event-stream", h.fake.request(0).headers().getFirst("Accept"));
    }

    @Test
    void nonStreaming_repliesWithTheMessageContentAndSendsNoDeltas() {
        h.fake.then(json(message("Hi there")));

        RunOutcome outcome = outcome(h.agent(h.settings().withStream(false)).start(request("hi"), h.events));

        assertEquals(RunOutcome.Completed.clean(), outcome);
        assertEquals(List.of("Hi there"), h.events.replies());
        assertEquals(List.of(), h.events.deltas());
        assertFalse(h.fake.request(0).body().has("stream"));
    }

    @Test
    void streamingRequested_butServerAnswersWithJson_stillReplies() {
        h.fake.then(json(message("plain json")));

        outcome(h.start("hi"));

        assertEquals(List.of("plain json"), h.events.replies());
    }

    @Test
    void apiKey_isSentAsBearerToken_andOmittedWhenEmpty() {
        h.fake.then(streamedText("a")).then(streamedText("b"));

        outcome(h.agent(h.settings().withApiKey("sk-secret")).start(request("one"), h.events));
        outcome(h.agent(h.settings().withApiKey("")).start(request("two"), h.events));

        assertEquals("Bearer sk-secret", h.fake.request(0).headers().getFirst("Authorization"));
        assertNull(h.fake.request(1).headers().getFirst("Authorization"));
    }

    @Test
    void baseUrlWithTrailingSlash_reachesTheSameEndpoint() {
        h.fake.then(streamedText("ok"));

        outcome(h.agent(settingsWithBase(h.fake.baseUrl() + "/")).start(request("hi"), h.events));

        assertEquals(List.of("ok"), h.events.replies());
    }

    @Test
    void temperatureAndMaxTokens_areSentOnlyWhenSet() {
        h.fake.then(streamedText("a")).then(streamedText("b"));
        OpenAiSettings s = h.settings();
        OpenAiSettings tuned = new OpenAiSettings(s.name(), s.baseUrl(), "", s.model(), "", true, s.timeout(), 10,
                0.2, 64, 2, List.of());

        outcome(h.agent(tuned).start(request("one"), h.events));
        outcome(h.start("two"));

        assertEquals(0.2, h.fake.request(0).body().get("temperature").asDouble());
        assertEquals(64, h.fake.request(0).body().get("max_tokens").asInt());
        assertFalse(h.fake.request(1).body().has("temperature"));
        assertFalse(h.fake.request(1).body().has("max_tokens"));
    }

    @Test
    void emptyAnswer_completesWithoutAReply() {
        h.fake.then(Responses.sse().data(Responses.finish("stop")).done());

        assertEquals(RunOutcome.Completed.clean(), outcome(h.start("hi")));
        assertEquals(List.of(), h.events.replies());
    }

    @Test
    void steerAfterTheRunCompleted_isRefused() {
        h.fake.then(streamedText("done"));
        var run = h.start("hi");
        outcome(run);

        assertEquals(SteerResult.REFUSED, run.steer(Runs.steer("late")));
    }

    private OpenAiSettings settingsWithBase(String baseUrl) {
        return OpenAiSettings.defaults("assistant", baseUrl, "test-model");
    }

    record Msg(String role, String content) {
    }
}

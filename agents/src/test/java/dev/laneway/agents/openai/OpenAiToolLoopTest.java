package dev.laneway.agents.openai;

import static dev.laneway.agents.openai.Responses.json;
import static dev.laneway.agents.openai.Responses.message;
import static dev.laneway.agents.openai.Responses.sse;
import static dev.laneway.agents.openai.Responses.streamedText;
import static dev.laneway.agents.openai.Responses.toolCallArguments;
import static dev.laneway.agents.openai.Responses.toolCallStart;
import static dev.laneway.agents.openai.Responses.toolCalls;
import static dev.laneway.agents.testing.Runs.outcome;
import static dev.laneway.agents.testing.Runs.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.laneway.agents.openai.Responses.Call;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.settings.OpenAiSettings;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OpenAiToolLoopTest {

    private final Harness h = new Harness();
    private final OpenAiSettings withClock = h.settings().withTools(List.of("current_time"));

    @AfterEach
    void close() {
        h.close();
    }

    @Test
    void nonStreamingToolCall_isAnsweredWithTheToolResultBeforeTheNextModelCall() {
        h.fake.then(json(toolCalls(new Call("call_1", "current_time", "{}"))))
                .then(json(message("It is three.")));

        RunOutcome outcome = outcome(h.agent(withClock.withStream(false)).start(request("time?"), h.events));

        assertEquals(RunOutcome.Completed.clean(), outcome);
        assertEquals(List.of("It is three."), h.events.replies());
        JsonNode declared = h.fake.request(0).body().get("tools").get(0);
        assertEquals("function", declared.get("type").asText());
        assertEquals("current_time", declared.get("function").get("name").asText());
        JsonNode messages = h.fake.request(1).messages();
        JsonNode assistant = messages.get(2);
        assertEquals("assistant", assistant.get("role").asText());
        assertEquals("call_1", assistant.get("tool_calls").get(0).get("id").asText());
        assertEquals(toolMessage("call_1", "2030-01-02T03:04:05Z"), messages.get(3));
        assertEquals(List.of("current_time:started", "current_time:done"), h.events.toolSteps());
    }

    @Test
    void streamedToolCalls_areAssembledFromArgumentPiecesSplitAcrossChunks() {
        h.fake.then(sse()
                        .data(toolCallStart(0, "call_a", "current_time"))
                        .data(toolCallArguments(0, "{\"time"))
                        .data(toolCallStart(1, "call_b", "launch_rockets"))
                        .data(toolCallArguments(0, "zone\": \"Europe/"))
                        .data(toolCallArguments(1, "{}"))
                        .data(toolCallArguments(0, "Paris\"}"))
                        .data(Responses.finish("tool_calls"))
                        .done())
                .then(streamedText("Done."));

        outcome(h.agent(withClock).start(request("time in Paris?"), h.events));

        JsonNode messages = h.fake.request(1).messages();
        JsonNode calls = messages.get(2).get("tool_calls");
        assertEquals("{\"timezone\": \"Europe/Paris\"}", calls.get(0).get("function").get("arguments").asText());
        assertEquals("launch_rockets", calls.get(1).get("function").get("name").asText());
        assertEquals(toolMessage("call_a", "2030-01-02T04:04:05+01:00"), messages.get(3));
        assertEquals(toolMessage("call_b", "Error: unknown tool 'launch_rockets'"), messages.get(4));
        assertEquals(List.of("Done."), h.events.replies());
    }

    @Test
    void toolRounds_areBounded_thenTheModelIsAskedForTextWithToolChoiceNone() {
        for (int i = 0; i < OpenAiRun.MAX_TOOL_ROUNDS; i++) {
            h.fake.then(json(toolCalls(new Call("call_" + i, "current_time", "{}"))));
        }
        h.fake.then(json(message("Enough.")));

        RunOutcome outcome = outcome(h.agent(withClock.withStream(false)).start(request("loop"), h.events));

        assertEquals(RunOutcome.Completed.clean(), outcome);
        int last = OpenAiRun.MAX_TOOL_ROUNDS;
        assertEquals("none", h.fake.request(last).body().get("tool_choice").asText());
        assertFalse(h.fake.request(last - 1).body().has("tool_choice"));
        assertEquals(List.of("Enough."), h.events.replies());
    }

    @Test
    void modelInsistingOnToolsPastTheBound_failsTheRun() {
        for (int i = 0; i <= OpenAiRun.MAX_TOOL_ROUNDS; i++) {
            h.fake.then(json(toolCalls(new Call("call_" + i, "current_time", "{}"))));
        }

        RunOutcome outcome = outcome(h.agent(withClock.withStream(false)).start(request("loop"), h.events));

        assertEquals(RunOutcome.Failed.of("too many tool calls", false), outcome);
    }

    @Test
    void invalidArgumentsJson_becomesAnErrorResultNotACrash() {
        h.fake.then(json(toolCalls(new Call("call_1", "current_time", "{oops"))))
                .then(json(message("Sorry.")));

        RunOutcome outcome = outcome(h.agent(withClock.withStream(false)).start(request("t"), h.events));

        assertEquals(RunOutcome.Completed.clean(), outcome);
        assertEquals(toolMessage("call_1", "Error: the arguments are not valid JSON"),
                h.fake.request(1).messages().get(3));
    }

    @Test
    void builtInToolsTheSettingsDoNotName_areNotOffered() {
        h.fake.then(json(message("Hi.")));

        outcome(h.agent(h.settings().withStream(false)).start(request("t"), h.events));

        assertFalse(h.fake.request(0).body().has("tools"));
    }

    static JsonNode toolMessage(String id, String content) {
        return FakeOpenAi.JSON.createObjectNode().put("role", "tool").put("tool_call_id", id).put("content", content);
    }
}

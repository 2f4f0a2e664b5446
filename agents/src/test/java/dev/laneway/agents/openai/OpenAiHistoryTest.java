package dev.laneway.agents.openai;

import static dev.laneway.agents.openai.Responses.json;
import static dev.laneway.agents.openai.Responses.message;
import static dev.laneway.agents.testing.Runs.outcome;
import static dev.laneway.agents.testing.Runs.request;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.laneway.core.SessionKey;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OpenAiHistoryTest {

    private final Harness h = new Harness();
    private final OpenAiAgent agent = h.agent(h.settings().withStream(false).withMaxHistoryMessages(2));

    @AfterEach
    void close() {
        h.close();
    }

    @Test
    void requests_carryOnlyTheLastMaxHistoryMessagesOfTheSession() {
        h.fake.then(json(message("A"))).then(json(message("B"))).then(json(message("C")));

        turn("chat-1", "one");
        turn("chat-1", "two");
        turn("chat-1", "three");

        assertEquals(List.of("system: " + Harness.SYSTEM, "user: two", "assistant: B", "user: three"),
                roles(h.fake.request(2).messages()));
    }

    @Test
    void sessions_haveSeparateHistories() {
        h.fake.then(json(message("A"))).then(json(message("B")));

        turn("chat-1", "one");
        turn("chat-2", "other");

        assertEquals(List.of("system: " + Harness.SYSTEM, "user: other"), roles(h.fake.request(1).messages()));
    }

    @Test
    void resetConversation_startsTheSessionFresh() {
        h.fake.then(json(message("A"))).then(json(message("B")));

        turn("chat-1", "one");
        agent.resetConversation(SessionKey.of("chat-1"));
        turn("chat-1", "two");

        assertEquals(List.of("system: " + Harness.SYSTEM, "user: two"), roles(h.fake.request(1).messages()));
    }

    private void turn(String session, String prompt) {
        outcome(agent.start(request(session, prompt), h.events));
    }

    private static List<String> roles(JsonNode messages) {
        return java.util.stream.StreamSupport.stream(messages.spliterator(), false)
                .map(m -> m.get("role").asText() + ": " + m.get("content").asText())
                .toList();
    }
}

package dev.laneway.agents.openai;

import static dev.laneway.agents.openai.Responses.after;
import static dev.laneway.agents.openai.Responses.json;
import static dev.laneway.agents.openai.Responses.message;
import static dev.laneway.agents.testing.Runs.outcome;
import static dev.laneway.agents.testing.Runs.request;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.laneway.core.SessionKey;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.store.HistoryEntry;
import dev.laneway.core.store.InMemorySessionStore;
import dev.laneway.core.store.SessionStore;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
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

    @Test
    void newConversationDuringARun_keepsThatRunsTurnOutOfTheNewHistory() {
        CompletableFuture<Void> answer = new CompletableFuture<>();
        h.fake.then(json(message("A"))).then(after(answer, json(message("B")))).then(json(message("C")));
        turn("chat-1", "one");
        AgentRun inFlight = agent.start(request("chat-1", "two"), h.events);

        h.fake.request(1); // the run waits for the model
        agent.resetConversation(SessionKey.of("chat-1"));
        answer.complete(null);

        assertEquals(RunOutcome.Completed.clean(), outcome(inFlight));
        assertEquals(List.of("A", "B"), h.events.replies(), "the answer still reaches the user");
        turn("chat-1", "three");
        assertEquals(List.of("system: " + Harness.SYSTEM, "user: three"), roles(h.fake.request(2).messages()));
        assertEquals(List.of(new HistoryEntry("user", "three"), new HistoryEntry("assistant", "C")),
                h.store.history(SessionKey.of("chat-1"), 10));
    }

    @Test
    void runStartedAfterTheReset_isSavedAsUsual() {
        h.fake.then(json(message("A"))).then(json(message("B")));
        turn("chat-1", "one");

        agent.resetConversation(SessionKey.of("chat-1"));
        turn("chat-1", "two");

        assertEquals(List.of(new HistoryEntry("user", "two"), new HistoryEntry("assistant", "B")),
                h.store.history(SessionKey.of("chat-1"), 10));
    }

    @Test
    void answeredRunWhoseHistoryCannotBeSaved_staysCompleted_soNoFailureNoticeFollowsTheAnswer() {
        h.fake.then(json(message("Hello!")));
        OpenAiAgent failingStore = new OpenAiAgent(h.settings().withStream(false), new HistoryWriteFails(),
                h.scheduler, h.scheduler);

        RunOutcome outcome = outcome(failingStore.start(request("chat-1", "hi"), h.events));

        assertEquals(RunOutcome.Completed.clean(), outcome);
        assertEquals(List.of("Hello!"), h.events.replies());
    }

    /** A store that reads but cannot write history (a full disk, a closed store). */
    private static final class HistoryWriteFails implements SessionStore {
        private final InMemorySessionStore reads = new InMemorySessionStore();

        @Override
        public Optional<QueueOverride> queueOverride(SessionKey session) {
            return reads.queueOverride(session);
        }

        @Override
        public void setQueueOverride(SessionKey session, QueueOverride override) {
            reads.setQueueOverride(session, override);
        }

        @Override
        public List<HistoryEntry> history(SessionKey session, int limit) {
            return reads.history(session, limit);
        }

        @Override
        public void appendHistory(SessionKey session, List<HistoryEntry> entries) {
            throw new IllegalStateException("the store is closed");
        }

        @Override
        public void clearHistory(SessionKey session) {
            reads.clearHistory(session);
        }

        @Override
        public Optional<java.time.Instant> lastFire(String jobId) {
            return reads.lastFire(jobId);
        }

        @Override
        public void recordFire(String jobId, java.time.Instant at) {
            reads.recordFire(jobId, at);
        }
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

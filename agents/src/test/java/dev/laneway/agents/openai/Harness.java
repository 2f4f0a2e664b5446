package dev.laneway.agents.openai;

import dev.laneway.agents.testing.RecordingEvents;
import dev.laneway.agents.testing.Runs;
import dev.laneway.agents.tool.ToolRegistry;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.settings.OpenAiSettings;
import dev.laneway.core.store.InMemorySessionStore;
import dev.laneway.core.testing.ManualTime;
import java.io.IOException;
import java.time.Instant;

/** The fake server, a manual scheduler, a store and recorded events, for one OpenAI agent test. */
final class Harness implements AutoCloseable {

    static final Instant NOW = Instant.parse("2030-01-02T03:04:05Z");
    static final String SYSTEM = "You are terse.";

    final FakeOpenAi fake;
    /** Clock and timers in one (a pool's pauses end by the clock, on a timer), starting at {@link #NOW}. */
    final ManualTime scheduler = new ManualTime(NOW);
    final InMemorySessionStore store = new InMemorySessionStore();
    final RecordingEvents events = new RecordingEvents();

    Harness() {
        try {
            fake = new FakeOpenAi();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    OpenAiSettings settings() {
        return OpenAiSettings.defaults("assistant", fake.baseUrl(), "test-model").withSystemPrompt(SYSTEM);
    }

    OpenAiAgent agent(OpenAiSettings settings) {
        return new OpenAiAgent(settings, store, scheduler, scheduler);
    }

    OpenAiAgent agent(OpenAiSettings settings, ToolRegistry catalog) {
        return new OpenAiAgent(settings, store, scheduler, scheduler, catalog);
    }

    /** Starts a run of the default settings with {@code prompt}. */
    AgentRun start(String prompt) {
        return agent(settings()).start(Runs.request(prompt), events);
    }

    @Override
    public void close() {
        fake.close();
    }
}

package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real gateway (in this JVM, wired as {@code laneway run} wires it) with two agents on two fake
 * OpenAI-compatible servers, a fallback and bindings (docs/behaviour.md §13): the console is bound
 * to {@code main} by channel and by DM (the default agent, an echo, would answer otherwise; the
 * console is the one channel that runs in-process, so the per-channel binding is shown with it and
 * a telegram binding beside it); when main's server goes away its run falls back to {@code local},
 * which sees the conversation so far, and the user is told.
 */
class AgentFallbackEndToEndIT {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void theBoundAgentAnswers_thenItsServerGoesAway_andTheFallbackAnswersWithTheSameHistory() throws Exception {
        try (FakeModelServer primary = new FakeModelServer(); FakeModelServer fallback = new FakeModelServer()) {
            String yaml = """
                    gateway: { dataDir: %s, http: { port: 0 } }
                    messages: { queue: { debounceMs: 0 } }
                    agents:
                      defaults: { agent: other }
                      list:
                        other: { provider: echo }
                        main:
                          provider: openai
                          baseUrl: %s
                          model: big
                          maxRetries: 0
                          fallback: [local]
                          fallbackNotice: true
                        local: { provider: openai, baseUrl: %s, model: small }
                      bindings:
                        - { channel: telegram, agent: other }
                        - { channel: console, dm: true, agent: main }
                    """.formatted(dir.resolve("data"), primary.baseUrl(), fallback.baseUrl());
            try (InProcessApp app = new InProcessApp(yaml, Map.of()).start()) {
                app.type("hello");
                app.awaitLine("model says: hello", WAIT);
                app.type("/status");
                app.awaitLine("Agent: main (fallback: local).", WAIT);
                assertEquals(1, primary.requests().size(), "the binding, not the default echo agent, answered");

                primary.close(); // main's server is gone: refused connections, retried, then the fallback
                app.type("again");
                app.awaitLine("model says: again", WAIT);
                app.awaitLine("ℹ️ Answered by local (the main model is unavailable).", WAIT);

                List<String> asked = fallback.requests();
                assertEquals(1, asked.size());
                assertTrue(asked.get(0).contains("\"model\":\"small\""), asked.get(0));
                assertTrue(asked.get(0).contains("model says: hello"), "the fallback sees the session's history: "
                        + asked.get(0));
                String metrics = app.get("/metrics").body();
                // the openai agent retries the refused connections itself, then reports its provider
                // unavailable (docs/behaviour.md §14.4): the fallback's reason is "unavailable"
                assertEquals(1.0, metric(metrics,
                        "laneway_agent_fallbacks_total{from=\"main\",reason=\"unavailable\",to=\"local\"}"));
                assertEquals(1.0, metric(metrics,
                        "laneway_runs_total{agent=\"local\",outcome=\"completed\"}"));
            }
        }
    }

    /** The value of one series in the Prometheus text (labels as Micrometer writes them, in name order). */
    private static double metric(String text, String series) {
        return text.lines().filter(line -> line.startsWith(series + " ")).findFirst()
                .map(line -> Double.parseDouble(line.substring(series.length() + 1).trim()))
                .orElseThrow(() -> new AssertionError("no series " + series + " in\n" + text));
    }
}

package dev.laneway.agents.openai;

import static dev.laneway.agents.openai.Responses.after;
import static dev.laneway.agents.openai.Responses.json;
import static dev.laneway.agents.openai.Responses.streamedText;
import static dev.laneway.agents.openai.Responses.streamedTextWithUsage;
import static dev.laneway.agents.openai.Responses.toolCalls;
import static dev.laneway.agents.testing.Runs.isDone;
import static dev.laneway.agents.testing.Runs.outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.laneway.agents.openai.Responses.Call;
import dev.laneway.agents.pool.PoolObserver;
import dev.laneway.agents.pool.PoolSnapshot;
import dev.laneway.agents.pool.ProviderPools;
import dev.laneway.agents.pool.Usage;
import dev.laneway.agents.testing.RecordingEvents;
import dev.laneway.agents.tool.Tool;
import dev.laneway.agents.tool.ToolRegistry;
import dev.laneway.core.Route;
import dev.laneway.core.SessionKey;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.RunRequest;
import dev.laneway.core.agent.settings.OpenAiSettings;
import dev.laneway.core.agent.settings.ProviderSettings;
import dev.laneway.core.scheduling.Claim;
import dev.laneway.core.scheduling.PriorityClass;
import dev.laneway.core.scheduling.SchedulingSettings;
import dev.laneway.core.testing.Await;
import dev.laneway.core.testing.LogCapture;
import dev.laneway.agents.pool.ProviderPool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Provider pools against the fake OpenAI server made to behave like a provider with limits
 * (docs/behaviour.md §14): shared concurrency, one coordinated pause on 429, the adaptive limit, rpm
 * and tpm, the circuit breaker, usage, and no model capacity held while tools run.
 */
class ProviderPoolTest {

    private final Harness h = new Harness();
    private final Recorder observed = new Recorder();
    private int sessions;

    @AfterEach
    void close() {
        h.close();
    }

    /** A named endpoint at the fake server, with these limits. */
    private ProviderSettings provider(int maxConcurrent, int rpm, int tpm, boolean adaptive, ProviderSettings.Circuit circuit) {
        return new ProviderSettings("hosted", h.fake.baseUrl(), "sk-pool", "test-model", maxConcurrent, rpm, tpm,
                adaptive, circuit);
    }

    private ProviderPools pools(ProviderSettings provider) {
        return new ProviderPools(List.of(provider), SchedulingSettings.defaults(), h.scheduler, h.scheduler, observed);
    }

    /** An agent calling the named endpoint (same URL, key and model): it shares the named pool. */
    private OpenAiAgent agent(ProviderPools pools, OpenAiSettings settings, ToolRegistry tools) {
        return new OpenAiAgent(settings.withApiKey("sk-pool"), h.store, h.scheduler, h.scheduler, tools, pools);
    }

    private OpenAiAgent agent(ProviderPools pools) {
        return agent(pools, h.settings(), ToolRegistry.empty());
    }

    private AgentRun start(OpenAiAgent agent, RecordingEvents events) {
        String session = "dm:u" + sessions++;
        return agent.start(new RunRequest("r-" + session, SessionKey.of(session), "hi", new Route("test", "default",
                session, null, null), false, "u", 1, new Claim(PriorityClass.INTERACTIVE, "tenant-" + session, session)),
                events);
    }

    private List<AgentRun> startMany(OpenAiAgent agent, int count) {
        List<AgentRun> runs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            runs.add(start(agent, new RecordingEvents()));
        }
        return runs;
    }

    private static PoolSnapshot only(ProviderPools pools) {
        return pools.snapshots().getFirst();
    }

    @Test
    void aPoolsConcurrencyLimit_isSharedByItsRuns_andTheProviderNeverSeesMore() {
        ProviderPools pools = pools(provider(2, 0, 0, false, ProviderSettings.Circuit.DEFAULTS));
        CompletableFuture<Void> gate = new CompletableFuture<>();
        for (int i = 0; i < 5; i++) {
            h.fake.then(after(gate, streamedText("ok")));
        }
        h.fake.enforce(2, 0, "1", h.scheduler);
        List<AgentRun> runs = startMany(agent(pools), 5);

        h.fake.request(1);
        Await.until("three runs wait for the pool", () -> only(pools).waiting() == 3);
        assertEquals(2, only(pools).running());
        assertEquals(2, h.fake.requestCount());
        gate.complete(null);

        runs.forEach(run -> assertEquals(RunOutcome.Completed.clean(), outcome(run)));
        assertEquals(5, h.fake.requestCount());
        assertEquals(0, h.fake.rateLimited(), "no 429: the pool kept to the provider's limit");
        assertTrue(h.fake.maxInFlight() <= 2);
        assertEquals(0, only(pools).running());
    }

    /** The fleet's named caps in memory: one counting semaphore per name (the Redis one is tested in app). */
    private static final class SharedCaps implements dev.laneway.core.fleet.FleetCaps {
        private final java.util.Map<String, int[]> held = new java.util.HashMap<>(); // guarded by this

        @Override
        public dev.laneway.core.fleet.FleetPermitSource permits(String name, int cap) {
            return () -> {
                synchronized (SharedCaps.this) {
                    int[] count = held.computeIfAbsent(name, n -> new int[1]);
                    if (count[0] >= cap) {
                        return null;
                    }
                    count[0]++;
                    java.util.concurrent.atomic.AtomicBoolean released = new java.util.concurrent.atomic.AtomicBoolean();
                    return () -> {
                        if (released.compareAndSet(false, true)) {
                            synchronized (SharedCaps.this) {
                                count[0]--;
                            }
                        }
                    };
                }
            };
        }
    }

    @Test
    void aFleetWidePoolsLimit_holdsAcrossTwoInstances_andTheProviderNeverSeesMore() {
        SharedCaps fleet = new SharedCaps();
        ProviderPools poolsA = pools(provider(2, 0, 0, false, ProviderSettings.Circuit.DEFAULTS));
        ProviderPools poolsB = pools(provider(2, 0, 0, false, ProviderSettings.Circuit.DEFAULTS));
        poolsA.fleetWide(fleet, Runnable::run, Duration.ofMillis(250));
        poolsB.fleetWide(fleet, Runnable::run, Duration.ofMillis(250));
        CompletableFuture<Void> gate = new CompletableFuture<>();
        for (int i = 0; i < 6; i++) {
            h.fake.then(after(gate, streamedText("ok")));
        }
        h.fake.enforce(2, 0, "1", h.scheduler);
        List<AgentRun> runs = new ArrayList<>(startMany(agent(poolsA), 3));
        runs.addAll(startMany(agent(poolsB), 3));

        // a granted call counts as running once its permit reached its pool (the grant and the count are two steps)
        Await.until("four calls wait for the fleet's two permits, two run",
                () -> only(poolsA).waiting() + only(poolsB).waiting() == 4
                        && only(poolsA).running() + only(poolsB).running() == 2);
        assertEquals(2, only(poolsA).running() + only(poolsB).running(), "each instance's own limit of 2 is not enough: "
                + poolsA.snapshots() + " " + poolsB.snapshots() + " 429s " + h.fake.rateLimited() + " fleet permits "
                + poolsA.pool("hosted").fleetPermits() + "/" + poolsB.pool("hosted").fleetPermits());
        Await.until("the two granted calls reach the provider", () -> h.fake.requestCount() == 2);
        gate.complete(null);

        Await.until("every run ends, a freed permit reaching the other instance at its retry", () -> {
            h.scheduler.advance(Duration.ofMillis(250));
            return runs.stream().allMatch(run -> isDone(run));
        });
        runs.forEach(run -> assertEquals(RunOutcome.Completed.clean(), outcome(run)));
        assertEquals(6, h.fake.requestCount());
        assertEquals(0, h.fake.rateLimited(), "no 429: the two instances kept to the provider's limit together");
        assertTrue(h.fake.maxInFlight() <= 2, "at most 2 calls at once across both: " + h.fake.maxInFlight());
    }

    @Test
    void a429PausesTheWholePoolOnce_andTheRunsThatGotItGoFirstWhenItEnds() {
        // an agent's own pool: no limits of its own
        ProviderPools pools = new ProviderPools(List.of(), SchedulingSettings.defaults(), h.scheduler, h.scheduler, observed);
        CompletableFuture<Void> gate = new CompletableFuture<>();
        for (int i = 0; i < 4; i++) {
            h.fake.then(after(gate, streamedText("ok")));
        }
        h.fake.enforce(2, 0, "5", h.scheduler);
        OpenAiAgent agent = new OpenAiAgent(h.settings(), h.store, h.scheduler, h.scheduler, pools);
        List<RecordingEvents> events = List.of(new RecordingEvents(), new RecordingEvents(), new RecordingEvents(),
                new RecordingEvents());
        List<AgentRun> runs = new ArrayList<>();
        events.forEach(e -> runs.add(start(agent, e)));

        h.fake.request(3);
        Await.until("two runs got 429 and wait again", () -> h.fake.rateLimited() == 2 && only(pools).waiting() == 2);
        assertTrue(only(pools).pausedUntil().isPresent(), "the pool is paused");
        assertEquals(List.of(h.scheduler.instant().plusSeconds(5)), List.of(only(pools).pausedUntil().get()),
                "one pause for both 429s, until their Retry-After");
        AgentRun late = start(agent, new RecordingEvents()); // a newcomer waits behind the paused pool, not first
        h.fake.then(streamedText("ok"));
        gate.complete(null);
        Await.until("the two admitted calls answered", () -> only(pools).running() == 0);
        assertEquals(4, h.fake.requestCount(), "nothing goes out during the pause");

        h.scheduler.advance(Duration.ofSeconds(5));

        runs.forEach(run -> assertEquals(RunOutcome.Completed.clean(), outcome(run)));
        assertEquals(RunOutcome.Completed.clean(), outcome(late));
        assertEquals(7, h.fake.requestCount(), () -> "rate limited " + h.fake.rateLimited() + ", retries " + events.stream().map(RecordingEvents::retries).toList());
        assertEquals(List.of(5L), observed.pauses(), "one coordinated pause, not one per run");
        assertEquals(2, events.stream().filter(e -> e.retries().equals(List.of("retry 1 of 2 after HTTP 429"))).count());
    }

    @Test
    void anAdaptivePool_shrinksOnA429_andStopsSendingMoreThanTheProviderTakes() {
        ProviderPools pools = pools(provider(8, 0, 0, true, ProviderSettings.Circuit.DEFAULTS));
        CompletableFuture<Void> gate = new CompletableFuture<>();
        for (int i = 0; i < 11; i++) {
            h.fake.then(after(gate, streamedText("ok")));
        }
        h.fake.enforce(2, 0, "1", h.scheduler);
        assertEquals(4, only(pools).limit(), "it starts at 4 (below the maximum of 8)");
        OpenAiAgent agent = agent(pools);
        List<AgentRun> first = new ArrayList<>();
        for (int i = 0; i < 3; i++) { // one after another, so the third is the one beyond the provider's 2
            first.add(start(agent, new RecordingEvents()));
            h.fake.request(i);
        }

        Await.until("the third got 429", () -> h.fake.rateLimited() == 1 && only(pools).waiting() == 1);
        assertEquals(1, only(pools).limit(), "the third call hit the wall: ceiling 2, limit 90% of it");
        gate.complete(null);
        Await.until("the admitted calls answered", () -> only(pools).running() == 0);
        assertEquals(2, only(pools).limit(), "grew back to its ceiling with the successes");
        h.scheduler.advance(Duration.ofSeconds(1));
        first.forEach(run -> assertEquals(RunOutcome.Completed.clean(), outcome(run)));

        startMany(agent, 8).forEach(run -> assertEquals(RunOutcome.Completed.clean(), outcome(run)));
        assertEquals(1, h.fake.rateLimited(), "no further 429 once it knew the provider's capacity");
        assertTrue(h.fake.maxInFlight() <= 2);
        assertEquals(List.of(1, 2), observed.limits());
    }

    @Test
    void anAbsurdRetryAfter_isClampedToTwoMinutes_andLoggedOncePerPool() {
        ProviderPools pools = pools(provider(0, 0, 0, false, ProviderSettings.Circuit.DEFAULTS));
        h.fake.then(Responses.status(429, "Retry-After", "86400")).then(Responses.status(429, "Retry-After", "999999"))
                .then(streamedText("ok"));
        List<String> warnings;
        try (LogCapture logged = LogCapture.of(ProviderPool.class)) {
            // an idle timeout of 30 min, so the only 2-minute timer is the pool's pause
            AgentRun run = start(agent(pools, h.settings().withTimeout(Duration.ofMinutes(30)), ToolRegistry.empty()),
                    new RecordingEvents());
            h.scheduler.awaitPending(Duration.ofMinutes(2));
            h.scheduler.advance(Duration.ofMinutes(2));
            h.fake.request(1);
            h.scheduler.awaitPending(Duration.ofMinutes(2));
            h.scheduler.advance(Duration.ofMinutes(2));
            assertEquals(RunOutcome.Completed.clean(), outcome(run));
            warnings = logged.lines().stream().map(LogCapture.Line::message).filter(m -> m.contains("Retry-After")).toList();
        }
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.getFirst().contains("\"86400\" is too long; waiting 120000 ms instead"), warnings.getFirst());
    }

    @Test
    void rpm_spacesTheCalls_soTheProvidersRateLimitIsNeverHit() {
        ProviderPools pools = pools(provider(0, 2, 0, false, ProviderSettings.Circuit.DEFAULTS));
        for (int i = 0; i < 3; i++) {
            h.fake.then(streamedText("ok"));
        }
        h.fake.enforce(0, 2, "60", h.scheduler);
        List<AgentRun> runs = startMany(agent(pools), 3);

        // the three runs reach the pool on their own threads, in any order: two get the minute's
        // two requests, whichever they are, and the third waits
        h.scheduler.awaitPending(Duration.ofSeconds(30));
        dev.laneway.core.testing.Await.until("the two runs the minute allows",
                () -> runs.stream().filter(run -> isDone(run)).count() == 2);
        assertEquals(2, h.fake.requestCount(), "the third waits for a minute's third request");
        h.scheduler.advance(Duration.ofSeconds(30));

        for (AgentRun run : runs) {
            assertEquals(RunOutcome.Completed.clean(), outcome(run));
        }
        assertEquals(3, h.fake.requestCount());
        assertEquals(0, h.fake.rateLimited());
    }

    @Test
    void tpm_isFedByTheReportedUsage_andTheTokenCounterSeesItByAgentAndTenant() {
        ProviderPools pools = pools(provider(0, 0, 100, false, ProviderSettings.Circuit.DEFAULTS));
        h.fake.then(streamedTextWithUsage("first", 60, 50)).then(streamedTextWithUsage("second", 10, 5));
        OpenAiAgent agent = agent(pools);
        RecordingEvents one = new RecordingEvents();

        assertEquals(RunOutcome.Completed.clean(), outcome(start(agent, one)));
        assertEquals(List.of("first"), one.replies());
        JsonNode sent = h.fake.request(0).body();
        assertTrue(sent.path("stream_options").path("include_usage").asBoolean(), "usage is asked for in streams");
        assertEquals(List.of("assistant|tenant-dm:u0|60|50"), observed.tokens());

        AgentRun second = start(agent, new RecordingEvents());
        // 110 tokens of 100: 10 in debt; back above zero after 11 tokens' worth of a minute, 6.6 s
        h.scheduler.awaitPending(Duration.ofMillis(6_600));
        assertEquals(1, h.fake.requestCount());
        h.scheduler.advance(Duration.ofMillis(6_600));
        assertEquals(RunOutcome.Completed.clean(), outcome(second));
        assertEquals(List.of("assistant|tenant-dm:u0|60|50", "assistant|tenant-dm:u1|10|5"), observed.tokens());
    }

    @Test
    void aServerThatRefusesStreamOptions_isAskedAgainWithout_andNeverAgain() {
        h.fake.then((exchange, fake) -> FakeOpenAi.send(exchange, 400, "application/json",
                        "{\"error\":{\"message\":\"Unrecognized request argument supplied: stream_options\"}}"))
                .then(streamedText("fine")).then(streamedText("still fine"));
        OpenAiAgent agent = h.agent(h.settings());

        assertEquals(RunOutcome.Completed.clean(), outcome(start(agent, new RecordingEvents())));
        assertEquals(RunOutcome.Completed.clean(), outcome(start(agent, new RecordingEvents())));
        assertTrue(h.fake.request(0).body().has("stream_options"));
        assertFalse(h.fake.request(1).body().has("stream_options"));
        assertFalse(h.fake.request(2).body().has("stream_options"));
    }

    @Test
    void theCircuitOpensAfterRepeatedFailures_runsThenFailAtOnce_andAProbeClosesIt() {
        ProviderPools pools = pools(provider(0, 0, 0, false,
                new ProviderSettings.Circuit(3, Duration.ofSeconds(60), Duration.ofSeconds(30))));
        OpenAiAgent agent = agent(pools, h.settings().withMaxRetries(0), ToolRegistry.empty());
        h.fake.failWith(503);
        for (int i = 0; i < 3; i++) {
            assertEquals(RunOutcome.Failed.unavailable("HTTP 503", List.of()), outcome(start(agent, new RecordingEvents())));
        }
        assertEquals("open", only(pools).circuit());

        assertEquals(RunOutcome.Failed.unavailable("provider unavailable", List.of()),
                outcome(start(agent, new RecordingEvents())), "fails at once, without a request");
        assertEquals(3, h.fake.requestCount());

        h.scheduler.advance(Duration.ofSeconds(30).plusMillis(1)); // past openFor
        h.fake.failWith(0).then(streamedText("back")).then(streamedText("again"));
        assertEquals(RunOutcome.Completed.clean(), outcome(start(agent, new RecordingEvents())), "the probe");
        assertEquals("closed", only(pools).circuit());
        assertEquals(RunOutcome.Completed.clean(), outcome(start(agent, new RecordingEvents())));
        assertEquals(List.of("open", "half-open", "closed"), observed.circuit());
        assertEquals(1, observed.failedFast());
    }

    @Test
    void aRunWaitingForThePool_isWithdrawnByAnAbort_andHoldsNothing() {
        ProviderPools pools = pools(provider(1, 0, 0, false, ProviderSettings.Circuit.DEFAULTS));
        CompletableFuture<Void> gate = new CompletableFuture<>();
        h.fake.then(after(gate, streamedText("first")));
        OpenAiAgent agent = agent(pools);
        AgentRun first = start(agent, new RecordingEvents());
        h.fake.request(0);
        AgentRun waiting = start(agent, new RecordingEvents());
        Await.until("the second waits", () -> only(pools).waiting() == 1);

        waiting.abort();

        assertEquals(new RunOutcome.Aborted(List.of()), outcome(waiting));
        assertEquals(0, only(pools).waiting());
        gate.complete(null);
        assertEquals(RunOutcome.Completed.clean(), outcome(first));
        assertEquals(0, only(pools).running());
        assertEquals(1, h.fake.requestCount());
    }

    @Test
    void toolExecution_holdsNoModelCapacity() throws Exception {
        ProviderPools pools = pools(provider(1, 0, 0, false, ProviderSettings.Circuit.DEFAULTS));
        CompletableFuture<Void> toolStarted = new CompletableFuture<>();
        CompletableFuture<Void> releaseTool = new CompletableFuture<>();
        Tool slow = new Tool() {
            @Override
            public String name() {
                return "slow_lookup";
            }

            @Override
            public String description() {
                return "Looks something up, slowly.";
            }

            @Override
            public JsonNode parametersSchema() {
                return JsonNodeFactory.instance.objectNode().put("type", "object");
            }

            @Override
            public String call(JsonNode arguments) throws Exception {
                toolStarted.complete(null);
                releaseTool.get(10, TimeUnit.SECONDS);
                return "found";
            }
        };
        h.fake.then(json(toolCalls(new Call("call_1", "slow_lookup", "{}"))))
                .then(streamedText("other run's answer"))
                .then(streamedText("tool run's answer"));
        AgentRun withTool = start(agent(pools, h.settings(), ToolRegistry.of(List.of(slow))), new RecordingEvents());
        toolStarted.get(10, TimeUnit.SECONDS);

        RecordingEvents other = new RecordingEvents();
        assertEquals(RunOutcome.Completed.clean(), outcome(start(agent(pools), other)),
                "the pool's one permit is free while the tool runs");
        assertEquals(List.of("other run's answer"), other.replies());
        releaseTool.complete(null);
        assertEquals(RunOutcome.Completed.clean(), outcome(withTool));
    }

    /** What the pools told the observer. */
    private static final class Recorder implements PoolObserver {
        private final List<String> tokens = new CopyOnWriteArrayList<>();
        private final List<Long> pauses = new CopyOnWriteArrayList<>();
        private final List<String> circuit = new CopyOnWriteArrayList<>();
        private final List<Integer> limits = new CopyOnWriteArrayList<>();
        private final List<String> failedFast = new CopyOnWriteArrayList<>();

        @Override
        public void tokens(String agent, String tenant, Usage usage) {
            tokens.add(agent + "|" + tenant + "|" + usage.prompt() + "|" + usage.completion());
        }

        @Override
        public void rateLimited(String pool, Duration pause) {
            pauses.add(pause.toSeconds());
        }

        @Override
        public void circuit(String pool, String state) {
            circuit.add(state);
        }

        @Override
        public void failedFast(String pool) {
            failedFast.add(pool);
        }

        @Override
        public void limit(String pool, int limit) {
            limits.add(limit);
        }

        List<String> tokens() {
            return List.copyOf(tokens);
        }

        List<Long> pauses() {
            return List.copyOf(pauses);
        }

        List<String> circuit() {
            return List.copyOf(circuit);
        }

        List<Integer> limits() {
            return List.copyOf(limits);
        }

        int failedFast() {
            return failedFast.size();
        }
    }
}

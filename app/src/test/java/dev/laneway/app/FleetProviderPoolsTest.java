package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.agents.openai.OpenAiAgent;
import dev.laneway.agents.pool.PoolSnapshot;
import dev.laneway.agents.pool.PoolObserver;
import dev.laneway.agents.pool.ProviderPools;
import dev.laneway.core.Route;
import dev.laneway.core.SessionKey;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.RunRequest;
import dev.laneway.core.agent.settings.OpenAiSettings;
import dev.laneway.core.agent.settings.ProviderSettings;
import dev.laneway.core.fleet.FleetAllowance;
import dev.laneway.core.scheduling.Claim;
import dev.laneway.core.scheduling.PriorityClass;
import dev.laneway.core.scheduling.SchedulingSettings;
import dev.laneway.core.store.InMemorySessionStore;
import dev.laneway.core.testing.Await;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.store.StoreOptions;
import dev.laneway.store.redis.FleetTiming;
import dev.laneway.store.redis.RedisFleetMember;
import dev.laneway.store.redis.RedisServer;
import dev.laneway.store.redis.RedisStore;
import dev.laneway.store.redis.RedisTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A provider pool's {@code maxConcurrent} across two instances of one fleet on a real Redis
 * (docs/behaviour.md §14.5, §17): each instance's agents call the fake model server through their
 * own pool, fleet-wide by {@code provider:<pool>} permits, and the server never sees more calls at
 * once than the one limit, although each instance alone would allow that many.
 */
class FleetProviderPoolsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final RedisServer server = RedisServer.shared();
    private final List<AutoCloseable> open = new ArrayList<>();
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private int sessions;

    @BeforeEach
    void emptyRedis() {
        server.flushAll();
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        threads.shutdownNow();
    }

    /** One instance's pools, fleet-wide through its own store and membership. */
    private ProviderPools instance(ManualTime time, ProviderSettings provider) {
        RedisStore store = RedisStore.open(RedisTarget.of(server.url(), "support"), StoreOptions.defaults().withClock(time));
        open.add(store);
        RedisFleetMember member = RedisFleetMember.join(store, FleetTiming.DEFAULTS, time, time, threads);
        open.add(member);
        ProviderPools pools = new ProviderPools(List.of(provider), SchedulingSettings.defaults(), time, time,
                PoolObserver.NONE);
        pools.fleetWide(member.caps(), threads, FleetAllowance.RETRY_EVERY);
        return pools;
    }

    private AgentRun start(OpenAiAgent agent) {
        String session = "dm:u" + sessions++;
        return agent.start(new RunRequest("r-" + session, SessionKey.of(session), "hi " + session,
                new Route("test", "default", session, null, null), false, "u", 1,
                new Claim(PriorityClass.INTERACTIVE, "tenant-" + session, session)), text -> { });
    }

    private static int waiting(ProviderPools pools) {
        return pools.snapshots().stream().mapToInt(PoolSnapshot::waiting).sum();
    }

    @Test
    void aPoolsLimit_holdsAcrossTwoInstances() throws Exception {
        try (FakeModelServer model = new FakeModelServer()) {
            ManualTime time = new ManualTime();
            ProviderSettings hosted = new ProviderSettings("hosted", model.baseUrl(), "sk-pool", "test-model", 2, 0, 0,
                    false, ProviderSettings.Circuit.DEFAULTS);
            OpenAiSettings agent = OpenAiSettings.defaults("assistant", model.baseUrl(), "test-model")
                    .withApiKey("sk-pool");
            ProviderPools poolsA = instance(time, hosted);
            ProviderPools poolsB = instance(time, hosted);
            OpenAiAgent onA = new OpenAiAgent(agent, new InMemorySessionStore(), time, time, poolsA);
            OpenAiAgent onB = new OpenAiAgent(agent, new InMemorySessionStore(), time, time, poolsB);

            model.holdRequests(true);
            List<AgentRun> runs = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                runs.add(start(onA));
                runs.add(start(onB));
            }
            model.awaitRequests(2, WAIT);
            Await.until("four calls wait for the fleet's two permits", () -> waiting(poolsA) + waiting(poolsB) == 4);
            assertEquals(2, model.inFlight(), "two calls in flight across both instances, each of which allows two");
            assertEquals(2, poolsA.snapshots().getFirst().fleetPermits() + poolsB.snapshots().getFirst().fleetPermits(),
                    "the fleet's two provider:hosted permits, held by the instances whose calls are in flight");

            model.holdRequests(false);
            for (int i = 0; i < 6; i++) {
                model.release(i);
            }
            Await.until("every run ends, a permit freed on one instance reaching the other at its retry", () -> {
                time.advance(FleetAllowance.RETRY_EVERY);
                return runs.stream().allMatch(run -> run.completion().toCompletableFuture().isDone());
            });
            for (AgentRun run : runs) {
                assertEquals(RunOutcome.Completed.clean(), run.completion().toCompletableFuture().join());
            }
            assertEquals(6, model.requests().size());
            assertTrue(model.maxInFlight() <= 2, "never more than the pool's limit at once: " + model.maxInFlight());
        }
    }
}

package dev.laneway.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.engine.GatewaySettings;
import dev.laneway.core.testing.Await;
import dev.laneway.core.testing.LogCapture;
import dev.laneway.core.testing.ScriptedAgent;
import dev.laneway.store.redis.FleetMembers.Instance;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Two gateways of one fleet on one real Redis (docs/behaviour.md §17): a session runs only on the
 * instance holding its lease; a message that reaches the other instance is journaled there and run
 * by the holder in its mode (a followup after the run, a steer into it); after the holder stops
 * renewing (killed or paused), the other instance takes the session over with its queued and
 * in-flight messages, and the old holder's late answer is neither sent nor recorded.
 */
class FleetGatewayTest {

    private final RedisServer server = RedisServer.shared();
    private final FleetMembers fleet = FleetMembers.on(server);

    @AfterEach
    void closeAll() throws Exception {
        fleet.close();
    }

    private Instance instance(FleetTiming timing, UnaryOperator<GatewaySettings.Builder> settings) {
        return instance(server, timing, settings);
    }

    private Instance instance(RedisServer on, FleetTiming timing, UnaryOperator<GatewaySettings.Builder> settings) {
        return fleet.gateway(on, timing, settings, CommandHandler.NONE, (builder, member) -> builder);
    }

    private Instance instance(FleetTiming timing) {
        return instance(timing, mode(QueueMode.FOLLOWUP));
    }

    /** Every message in {@code mode}, with no debounce before a drain (nothing waits for a manual clock). */
    private static UnaryOperator<GatewaySettings.Builder> mode(QueueMode mode) {
        return settings -> settings.queueDefaults(new QueueSettings(mode, Duration.ZERO, 20, DropPolicy.SUMMARIZE));
    }

    @Test
    void aMessageReachingTheOtherInstance_isRunByTheLeaseHolder_afterItsRun_andNeverTwoRunsAtOnce() {
        Instance a = instance(FleetTiming.DEFAULTS);
        Instance b = instance(FleetTiming.DEFAULTS);

        a.harness().dm("first");
        ScriptedAgent.ScriptedRun first = Await.value("A runs the first message", () -> a.agent().runs().isEmpty()
                ? null : a.agent().run(0));
        b.send("second", "b1"); // Slack may hand the next event to another connection, so another instance

        Await.until("A picks up the second message from the shared journal",
                () -> a.harness().gateway.pendingMessages() == 2);
        assertEquals(List.of(), b.agent().runs(), "B never runs A's session");
        assertEquals(1, a.agent().runs().size(), "one run at a time");

        first.complete("answer one");
        ScriptedAgent.ScriptedRun second = Await.value("A runs the second as a followup",
                () -> a.agent().runs().size() == 2 ? a.agent().run(1) : null);
        assertTrue(second.prompt().contains("second"), second.prompt());
        second.complete("answer two");

        Await.until("both answered by A", () -> a.harness().channel.texts().equals(List.of("answer one", "answer two")));
        Await.until("both recorded answered", () -> a.store().pending().isEmpty());
        assertEquals(List.of(), b.harness().channel.texts(), "B sends nothing for A's session");
        assertEquals(List.of(), b.agent().runs());
    }

    @Test
    void aSteerReachingTheOtherInstance_steersTheHoldersRun() {
        UnaryOperator<GatewaySettings.Builder> steer = mode(QueueMode.STEER);
        Instance a = instance(FleetTiming.DEFAULTS, steer);
        Instance b = instance(FleetTiming.DEFAULTS, steer);
        a.agent().steerable(true);

        a.harness().dm("plan a trip");
        ScriptedAgent.ScriptedRun run = Await.value("A runs it", () -> a.agent().runs().isEmpty() ? null : a.agent().run(0));
        b.send("make it Lisbon", "b1");

        Await.until("the steer reaches A's run", () -> run.steerTexts().contains("make it Lisbon"));
        run.replyAnsweringSteers("Lisbon it is");
        run.complete();
        Await.until("both recorded answered", () -> a.store().pending().isEmpty());
        assertEquals(List.of(), b.agent().runs());
    }

    @Test
    void afterTheHolderStopsRenewing_theOtherInstanceTakesOverItsQueuedAndInFlightMessages_andTheOldAnswerIsNotRecorded() {
        FleetTiming shortLived = FleetTiming.of(Duration.ofMillis(600));
        Instance a = instance(shortLived);
        Instance b = instance(shortLived);

        a.harness().dm("first");
        ScriptedAgent.ScriptedRun stale = Await.value("A runs the first", () -> a.agent().runs().isEmpty()
                ? null : a.agent().run(0));
        a.harness().dm("second"); // queued behind it, on A
        Await.until("both pending in Redis", () -> b.store().pendingOf(
                dev.laneway.core.SessionKey.of(a.store().pending().get(0).session())).size() == 2);

        // A stops renewing (killed, or paused): its clock stands still, so it never beats again
        try (Jedis redis = server.client()) {
            String lease = a.store().keys().lease(a.store().pending().get(0).session());
            Await.until("A's lease expires in Redis", () -> !redis.exists(lease));
        }
        b.harness().advance(shortLived.renewEvery()); // B's sweep finds the session nobody holds
        ScriptedAgent.ScriptedRun takenOver = Await.value("B runs the in-flight message",
                () -> b.agent().runs().isEmpty() ? null : b.agent().run(0));
        assertTrue(takenOver.prompt().contains("first"), takenOver.prompt());

        // A wakes: its beat finds the lease gone and aborts the run; its late answer goes nowhere
        a.harness().advance(shortLived.renewEvery());
        Await.until("A's run is aborted", stale::abortRequested);
        stale.complete("stale answer");

        takenOver.complete("answer one");
        ScriptedAgent.ScriptedRun queued = Await.value("B runs the queued message",
                () -> b.agent().runs().size() == 2 ? b.agent().run(1) : null);
        assertTrue(queued.prompt().contains("second"), queued.prompt());
        queued.complete("answer two");

        Await.until("both answered by B", () -> b.harness().channel.texts().equals(List.of("answer one", "answer two")));
        Await.until("recorded once, by B", () -> b.store().pending().isEmpty());
        assertEquals(List.of(), a.harness().channel.texts(), "A sent nothing after losing the lease");
        assertEquals(1, a.agent().runs().size(), "A never ran the queued message");
    }

    @Test
    void theSweep_keepsTheLeaseOfAnIdleSession_untilTheAnsweredRecordKeptForARetryIsWritten() throws Exception {
        FleetTiming timing = new FleetTiming(Duration.ofSeconds(15), Duration.ofMillis(500)); // sweeps before the 1 s retry
        try (RedisServer own = RedisServer.start(); Jedis redis = own.client();
             LogCapture writerLog = LogCapture.of(RedisWriter.class)) {
            Instance a = instance(own, timing, mode(QueueMode.FOLLOWUP));
            a.harness().dm("first");
            ScriptedAgent.ScriptedRun run = Await.value("A runs it", () -> a.agent().runs().isEmpty() ? null : a.agent().run(0));
            String session = a.store().pending().get(0).session();
            String lease = a.store().keys().lease(session);
            String token = redis.hget(lease, "token");

            redis.configSet("maxmemory-policy", "noeviction");
            redis.configSet("maxmemory", "1"); // Redis refuses the answered record: the writer keeps it for a retry
            run.complete("answer one");
            Await.until("the answered record is kept", () -> writerLog.lines().stream()
                    .anyMatch(line -> line.mentions("could not record the end of message")));
            redis.configSet("maxmemory", "0");

            a.harness().advance(timing.renewEvery()); // a sweep: the session is idle, its record not yet written
            Await.until("the beat and the sweep ran", () -> a.harness().time.pendingDelays().stream()
                    .filter(timing.renewEvery()::equals).count() >= 2);
            assertEquals(token, redis.hget(lease, "token"), "the lease is kept while its session's record is unwritten");

            a.harness().advance(Duration.ofMillis(600)); // the writer's retry is due
            a.store().flush();
            Await.until("the answered record is written under the lease", () -> a.store().pending().isEmpty());
            assertEquals(List.of("answer one"), a.harness().channel.texts());
            assertEquals(1, a.agent().runs().size(), "answered once");
            fleet.closeNow(a.member());
        }
    }
}

package dev.laneway.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.command.CommandDecision;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.command.SessionStatus;
import dev.laneway.core.testing.Await;
import dev.laneway.core.testing.ScriptedAgent;
import dev.laneway.store.redis.FleetMembers.Instance;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /stop} and {@code /status} sent to an instance that does not hold the session's lease
 * (docs/behaviour.md §17): the stop reaches the holder, which aborts the run and clears the queue,
 * and the user gets the reply one instance would give (the count the holder cleared); the status is
 * the session's real state, read from the shared journal and the lease. Two gateways of one fleet on
 * one real Redis, with a command handler that answers what the engine returned.
 */
class FleetCommandsTest {

    private final RedisServer server = RedisServer.shared();
    private final FleetMembers fleet = FleetMembers.on(server);

    /** {@code /stop}: "stopped <cleared>"; {@code /status}: "queued <depth>, running <yes|no>". */
    private static final CommandHandler COMMANDS = (message, context) -> switch (message.text()) {
        case "/stop" -> new CommandDecision.Reply("stopped " + context.control().stop(context.session()));
        case "/status" -> {
            SessionStatus status = context.control().status(context.session(), message.channel());
            yield new CommandDecision.Reply("queued " + status.queueDepth() + ", running "
                    + (status.activeRunAge() != null ? "yes" : "no") + ", lane " + status.lanes().get(0).active() + "/"
                    + status.lanes().get(0).queued());
        }
        default -> CommandDecision.NOT_A_COMMAND;
    };

    @AfterEach
    void closeAll() throws Exception {
        fleet.close();
    }

    private Instance instance() {
        return fleet.gateway(FleetTiming.DEFAULTS, settings -> settings.queueDefaults(
                new QueueSettings(QueueMode.FOLLOWUP, Duration.ZERO, 20, DropPolicy.SUMMARIZE)), COMMANDS);
    }

    /** A runs the session's first message with the second queued behind it, both from A. */
    private static ScriptedAgent.ScriptedRun busyOnA(Instance a) {
        a.send("first", "a1");
        ScriptedAgent.ScriptedRun run = Await.value("A runs the first message",
                () -> a.agent().runs().isEmpty() ? null : a.agent().run(0));
        a.send("second", "a2");
        Await.until("the second is queued on A", () -> a.harness().gateway.pendingMessages() == 2);
        return run;
    }

    @Test
    void aStopSentToTheOtherInstance_abortsTheHoldersRun_clearsItsQueue_andRepliesWithTheCount() {
        Instance a = instance();
        Instance b = instance();
        ScriptedAgent.ScriptedRun first = busyOnA(a);

        b.send("/stop", "b1");

        Await.until("B answers", () -> !b.harness().channel.texts().isEmpty());
        assertEquals(List.of("stopped 1"), b.harness().channel.texts(), "what the holder clears but its run");
        Await.until("A's run is aborted", first::abortRequested);
        assertTrue(first.abortRequested(), "A's run is aborted");
        first.complete("too late");
        Await.until("both messages ended in the shared journal", () -> a.store().pending().isEmpty());
        assertEquals(1, a.agent().runs().size(), "the queued message never ran");
        assertEquals(List.of(), b.agent().runs(), "B ran nothing");
        assertEquals(List.of(), a.harness().channel.texts(), "A sent nothing: not the late answer, not the reply");
    }

    @Test
    void aStatusSentToTheOtherInstance_showsTheHoldersRunAndQueue() {
        Instance a = instance();
        Instance b = instance();
        ScriptedAgent.ScriptedRun first = busyOnA(a);

        b.send("/status", "b1");
        Await.until("B answers", () -> !b.harness().channel.texts().isEmpty());
        assertEquals(List.of("queued 1, running yes, lane 1/1"), b.harness().channel.texts());

        first.complete("answer one");
        ScriptedAgent.ScriptedRun second = Await.value("A runs the second",
                () -> a.agent().runs().size() == 2 ? a.agent().run(1) : null);
        second.complete("answer two");
        Await.until("both answered", () -> a.store().pending().isEmpty());
        b.send("/status", "b2");
        Await.until("B answers again", () -> b.harness().channel.texts().size() == 2);
        assertEquals("queued 0, running no, lane 0/0", b.harness().channel.texts().get(1), "idle across the fleet");
    }

    @Test
    void aStopOfASessionNobodyHolds_takesItWithItsPendingMessages_andStopsThem() {
        Instance a = instance();
        Instance b = instance();
        ScriptedAgent.ScriptedRun first = busyOnA(a);
        // A leaves without giving the session's lease back cleanly: the lease is gone, its messages pending
        String session = a.store().pending().get(0).session();
        try (redis.clients.jedis.Jedis redis = server.client()) {
            redis.del(a.store().keys().lease(session));
        }
        a.harness().advance(FleetTiming.DEFAULTS.renewEvery()); // A's beat finds the lease gone and aborts
        Await.until("A's run is aborted", first::abortRequested);
        first.complete("too late");

        b.send("/stop", "b1");
        Await.until("B answers", () -> !b.harness().channel.texts().isEmpty());
        // the first message's run is aborted if it had begun on B (a /stop on one instance does not count a
        // running message either), cleared if it still waited for a main permit; the second is cleared
        // or, when A's sweep took the session back and already runs the second message, A aborts that
        // run, which a /stop does not count: "stopped 0", and A's second run is the one aborted
        String reply = b.harness().channel.texts().get(0);
        if (reply.equals("stopped 0")) {
            Await.until("A's run of the second message is aborted",
                    () -> a.agent().runs().size() == 2 && a.agent().run(1).abortRequested());
            a.agent().run(1).complete("too late");
        } else {
            assertTrue(reply.equals("stopped 1") || reply.equals("stopped 2"), reply);
        }
        // A's sweep may have taken the session back before the /stop: a message whose refused end A
        // learns of after the stop's pick-up is dropped by the next pick-up (the stop mark, D233)
        Await.until("both ended in the shared journal", () -> {
            a.harness().advance(FleetTiming.DEFAULTS.renewEvery());
            b.harness().advance(FleetTiming.DEFAULTS.renewEvery());
            return b.store().pending().isEmpty();
        });
        assertTrue(b.agent().runs().stream().allMatch(ScriptedAgent.ScriptedRun::abortRequested), "B's run is aborted");
        assertEquals(1, b.harness().channel.texts().size(), "B answered nothing but the /stop");
        assertEquals(List.of(), a.harness().channel.texts());
    }

    /**
     * The session's lease is held by an instance that no longer reads anything (killed, paused): its
     * holder is written straight into Redis, as a kill -9 leaves it until the lease expires.
     */
    private String leaseHeldByADeadInstance(Instance a) {
        a.send("first", "a1");
        ScriptedAgent.ScriptedRun run = Await.value("A runs the first message",
                () -> a.agent().runs().isEmpty() ? null : a.agent().run(0));
        String session = a.store().pending().get(0).session();
        run.complete("answer one");
        Await.until("the first ended", () -> a.store().pending().isEmpty());
        try (redis.clients.jedis.Jedis redis = server.client()) {
            long token = redis.incr(a.store().keys().fence());
            redis.hset(a.store().keys().lease(session), java.util.Map.of("instance", "dead-1", "token",
                    Long.toString(token)));
            redis.pexpire(a.store().keys().lease(session), FleetTiming.DEFAULTS.ttl().toMillis());
        }
        return session;
    }

    @Test
    void aStopOfASessionWhoseHolderIsDead_repliesAtOnce_andItsMessagesNeverRunAfterTheTakeover() {
        Instance a = instance();
        Instance b = instance();
        String session = leaseHeldByADeadInstance(a);
        b.send("second", "b1");
        b.send("third", "b2");
        Await.until("both journaled for the dead holder", () -> b.store().pendingOf(
                dev.laneway.core.SessionKey.of(session)).size() == 2);

        long began = System.nanoTime();
        b.send("/stop", "b3");
        long tookMillis = (System.nanoTime() - began) / 1_000_000;
        b.send("fourth?", "b4"); // the same thread takes the next message at once

        assertTrue(tookMillis < 1000, "the /stop held the delivering thread for " + tookMillis + " ms");
        assertEquals(List.of("stopped 1"), b.harness().channel.texts(), "the running one and one queued");

        try (redis.clients.jedis.Jedis redis = server.client()) {
            redis.del(a.store().keys().lease(session)); // the dead holder's lease expires
        }
        b.harness().advance(FleetTiming.DEFAULTS.renewEvery()); // B's sweep takes the session over
        ScriptedAgent.ScriptedRun after = Await.value("B runs the message sent after the /stop",
                () -> b.agent().runs().isEmpty() ? null : b.agent().run(0));
        after.complete("answer four");
        Await.until("every message ended", () -> b.store().pending().isEmpty());
        assertEquals(1, b.agent().runs().size(), "the stopped messages never ran");
        assertEquals(1, a.agent().runs().size(), "A ran only the first");
    }

    @Test
    void messagesAndStatusesOfASessionHeldElsewhere_leaveNoKeysBehindOnTheAskingInstance() {
        Instance a = instance();
        Instance b = instance();
        ScriptedAgent.ScriptedRun first = busyOnA(a);
        for (int i = 0; i < 5; i++) {
            b.send("more " + i, "b" + i);
            b.send("/status", "s" + i);
        }
        Await.until("B answered every status", () -> b.harness().channel.texts().size() == 5);
        assertEquals(0, b.store().keysKept(), "B keeps nothing of messages that end on A");
        first.complete("answer one");
    }
}

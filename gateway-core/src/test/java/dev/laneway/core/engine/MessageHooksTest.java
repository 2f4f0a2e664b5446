package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.SessionKey;
import dev.laneway.core.Route;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.channel.ChannelCapabilities;
import dev.laneway.core.channel.InboundSink;
import dev.laneway.core.command.CommandDecision;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.core.store.MessageJournal;
import dev.laneway.core.testing.FakeChannel;
import dev.laneway.core.testing.ForwardingJournal;
import dev.laneway.core.testing.GatewayHarness;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.core.testing.ScriptedAgent;
import dev.laneway.core.testing.TrampolineExecutor;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The channel's per-message hooks: {@code accepted} once per accepted message, {@code settled}
 * once per accepted message when it ends (whatever the disposition), in the chat's outbox order
 * so that "settled" never overtakes the answer.
 */
class MessageHooksTest {

    private static final QueueSettings COLLECT = new QueueSettings(QueueMode.COLLECT, Duration.ZERO, 20, DropPolicy.SUMMARIZE);

    @Test
    void aBurst_isAcceptedMessageByMessage_andEverySettledHookComesAfterTheCollectedReply() {
        GatewayHarness h = new GatewayHarness(s -> s.queueDefaults(COLLECT));
        String first = h.dm("first");
        String second = h.dm("second");
        String third = h.dm("third");
        assertEquals(List.of("accepted " + first, "accepted " + second, "accepted " + third), h.channel.progress());

        h.agent.run(0).complete("answer one");
        h.agent.run(1).complete("collected answer");
        assertEquals(List.of("accepted " + first, "accepted " + second, "accepted " + third,
                "send answer one", "settled " + first,
                "send collected answer", "settled " + second, "settled " + third), h.channel.progress());
    }

    @Test
    void settled_neverOvertakesAReplyStillWaitingInTheOutbox() {
        GatewayHarness h = new GatewayHarness();
        String id = h.dm("question");
        h.outbox.pause();
        h.agent.run(0).complete("the answer");
        assertEquals(List.of("accepted " + id), h.channel.progress(), "nothing delivered while the outbox is held");
        h.outbox.resume();
        assertEquals(List.of("accepted " + id, "send the answer", "settled " + id), h.channel.progress());
    }

    @Test
    void stop_settlesTheQueuedMessagesItClears() {
        GatewayHarness h = new GatewayHarness(s -> s.queueDefaults(COLLECT));
        String running = h.dm("running");
        String queued1 = h.dm("queued 1");
        String queued2 = h.dm("queued 2");
        assertEquals(2, h.gateway.stop(SessionKey.of("test:dm:user")));
        h.agent.run(0).complete();
        List<String> progress = h.channel.progress();
        for (String id : List.of(running, queued1, queued2)) {
            assertEquals(1, progress.stream().filter(("settled " + id)::equals).count(), id + " in " + progress);
        }
    }

    @Test
    void aMessageDroppedByTheCap_isSettledAtOnce() {
        QueueSettings capOne = new QueueSettings(QueueMode.COLLECT, Duration.ZERO, 1, DropPolicy.NEW);
        GatewayHarness h = new GatewayHarness(s -> s.queueDefaults(capOne));
        h.dm("running");
        h.dm("queued");
        String rejected = h.dm("rejected");
        List<String> progress = h.channel.progress();
        assertTrue(progress.indexOf("settled " + rejected) > progress.indexOf("accepted " + rejected), progress.toString());
    }

    @Test
    void commandsDuplicatesDenialsAndBusyRefusals_areNeverAccepted() {
        GatewayHarness commands = new GatewayHarness(s -> s, (message, context) ->
                message.text().startsWith("/") ? new CommandDecision.Reply("ok") : CommandDecision.NOT_A_COMMAND);
        commands.dm("/status");
        InboundMessage once = commands.message("hello").build();
        commands.gateway.accept(once);
        commands.gateway.accept(once);
        assertEquals(List.of("send ok", "accepted " + once.platformMessageId()), commands.channel.progress());

        GatewayHarness busy = new GatewayHarness(s -> s.maxPendingRuns(1));
        String admitted = busy.dm("admitted");
        busy.dm("refused");
        assertEquals("accepted " + admitted, busy.channel.progress().get(0));
        assertEquals(1, busy.channel.progress().stream().filter(e -> e.startsWith("accepted")).count());
    }

    @Test
    void theHooksGetTheMessagesOwnRoute() {
        GatewayHarness h = new GatewayHarness();
        h.send(h.message("in a thread").chatId("c9").threadId("t9").direct(false).senderId("u9"));
        h.agent.run(0).complete("done");
        Route expected = new Route("test", "default", "c9", "t9", "m1");
        assertEquals(List.of("accepted m1", "send done", "settled m1"), h.channel.progress());
        assertEquals(expected, h.channel.sent().get(0).route());
    }

    @Test
    void settled_staysBehindTheReply_evenWhenTheExecutorRunsTasksOutOfOrder() {
        var channel = new FakeChannel("test");
        var time = new ManualTime();
        var queued = new ArrayDeque<Runnable>();
        var agent = new ScriptedAgent();
        Gateway gateway = Gateway.builder().clock(time).scheduler(time).executor(queued::add).agent(agent)
                .channel(channel).build();
        gateway.accept(InboundMessage.builder("test").text("q").platformMessageId("m1").build());
        runAll(queued);
        agent.run(0).complete("answer");
        // run the executor's tasks in reverse order: only the chat queue can keep them ordered
        List<Runnable> tasks = new ArrayList<>(queued);
        queued.clear();
        Collections.reverse(tasks);
        tasks.forEach(Runnable::run);
        runAll(queued);
        assertEquals(List.of("accepted m1", "send answer", "settled m1"), channel.progress());
    }

    @Test
    void aMessageRefusedBecauseTheJournalFailed_wasNeverAccepted_soItsChannelHearsNothingOfIt() {
        MessageJournal failing = new ForwardingJournal(MessageJournal.NONE) {
            @Override
            public CompletableFuture<Void> append(JournalEntry entry) {
                return CompletableFuture.failedFuture(new IllegalStateException("disk full"));
            }
        };
        GatewayHarness h = new GatewayHarness(s -> s, CommandHandler.NONE, failing, new ManualTime());
        h.dm("hello");
        assertEquals(List.of("send ⚠️ Sorry, something went wrong while answering. (storage unavailable)"),
                h.channel.progress(), "no settled hook for a message that was never accepted");
        assertEquals(Disposition.REJECTED_BUSY, h.dispositions.of("m1"));
    }

    @Test
    void aMessageRestoredAfterARestart_isReportedSettledToItsChannel() {
        InMemoryJournal journal = new InMemoryJournal();
        GatewayHarness before = new GatewayHarness(s -> s, CommandHandler.NONE, journal, new ManualTime());
        String id = before.dm("question");
        GatewayHarness after = new GatewayHarness(s -> s, CommandHandler.NONE, journal,
                new ManualTime(before.time.instant().plusSeconds(30)));
        after.agent.run(0).complete("answer");
        assertEquals(List.of("send answer", "settled " + id), after.channel.progress());
    }

    @Test
    void aChannelThatDoesNotTrackMessages_getsNoHooks_evenIfItImplementsThem() {
        var untracked = new FakeChannel("test", new ChannelCapabilities(4096, true, Duration.ofSeconds(4), true));
        var time = new ManualTime();
        var agent = new ScriptedAgent();
        var executor = new TrampolineExecutor();
        Gateway gateway = Gateway.builder().clock(time).scheduler(time).executor(executor).agent(agent)
                .channel(untracked).build();
        gateway.start();
        gateway.accept(InboundMessage.builder("test").text("q").platformMessageId("m1").build());
        agent.run(0).complete("answer");
        assertEquals(List.of("send answer"), untracked.progress(), "the capability decides, not the class");
    }

    @Test
    void aDecoratingChannel_thatForwardsTheHooksAndDeclaresTracking_getsThem() {
        var inner = new FakeChannel("test");
        ChannelAdapter decorated = new ChannelAdapter() {
            @Override
            public String name() {
                return inner.name();
            }

            @Override
            public ChannelCapabilities capabilities() {
                return inner.capabilities();
            }

            @Override
            public void start(InboundSink sink) throws Exception {
                inner.start(sink);
            }

            @Override
            public void send(Route route, String text) throws Exception {
                inner.send(route, text);
            }

            @Override
            public void accepted(Route route) {
                inner.accepted(route);
            }

            @Override
            public void settled(Route route) {
                inner.settled(route);
            }

            @Override
            public void stop() {
                inner.stop();
            }
        };
        var time = new ManualTime();
        var agent = new ScriptedAgent();
        Gateway gateway = Gateway.builder().clock(time).scheduler(time).executor(new TrampolineExecutor()).agent(agent)
                .channel(decorated).build();
        gateway.start();
        gateway.accept(InboundMessage.builder("test").text("q").platformMessageId("m1").build());
        agent.run(0).complete("answer");
        assertEquals(List.of("accepted m1", "send answer", "settled m1"), inner.progress());
    }

    private static void runAll(ArrayDeque<Runnable> queued) {
        while (!queued.isEmpty()) {
            queued.poll().run();
        }
    }
}

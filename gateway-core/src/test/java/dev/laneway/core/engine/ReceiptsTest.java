package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.channel.ChannelCapabilities;
import dev.laneway.core.channel.ReceiptMode;
import dev.laneway.core.channel.SendFailure;
import dev.laneway.core.channel.Streaming;
import dev.laneway.core.testing.FakeChannel;
import dev.laneway.core.testing.GatewayHarness;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Receipts (docs/behaviour.md §16.5): each message shows its disposition as soon as the engine
 * decides it, in the chat's outbox order, and loses it right before its answer: a receipt never
 * arrives after its message's answer and never outlives it.
 */
class ReceiptsTest {

    private static final QueueSettings FOLLOWUP = new QueueSettings(QueueMode.FOLLOWUP, Duration.ZERO, 20, DropPolicy.SUMMARIZE);
    private static final QueueSettings COLLECT = new QueueSettings(QueueMode.COLLECT, Duration.ZERO, 20, DropPolicy.SUMMARIZE);
    private static final QueueSettings STEER = new QueueSettings(QueueMode.STEER, Duration.ZERO, 20, DropPolicy.SUMMARIZE);

    /** A channel with a typing indicator and without the accepted/settled hooks, so progress shows receipts and sends. */
    private static GatewayHarness harness(ReceiptMode mode, QueueSettings queue) {
        return harness(mode, queue, true, s -> s);
    }

    private static GatewayHarness harness(ReceiptMode mode, QueueSettings queue, boolean typing,
                                          UnaryOperator<GatewaySettings.Builder> more) {
        var capabilities = typing ? new ChannelCapabilities(4096, true, Duration.ofSeconds(4), true, false)
                : new ChannelCapabilities(4096, false, null, true, false);
        return new GatewayHarness(s -> more.apply(s.queueDefaults(queue)), new FakeChannel("test", capabilities).receipts(mode));
    }

    @Test
    void aQueuedMessage_showsQueued_thenRunning_andLosesItRightBeforeItsAnswer() {
        GatewayHarness h = harness(ReceiptMode.REACTIONS, FOLLOWUP);
        String first = h.dm("first");
        String second = h.dm("second");
        assertEquals(List.of("react " + second + " 👀"), h.channel.progress(),
                "the running message shows nothing (the typing indicator says it); the queued one shows 👀 at once");
        h.agent.run(0).complete("answer one");
        h.agent.run(1).complete("answer two");
        assertEquals(List.of("react " + second + " 👀", "send answer one", "react " + second + " ✍",
                "react " + second + " -", "send answer two"), h.channel.progress());
        assertEquals(Disposition.RAN, h.dispositions.of(first));
    }

    @Test
    void aCollectBatch_showsQueuedForItsFirstMessage_andMergedForTheOthers() {
        GatewayHarness h = harness(ReceiptMode.REACTIONS, COLLECT);
        h.dm("running");
        String a = h.dm("a");
        String b = h.dm("b");
        String c = h.dm("c");
        assertEquals(List.of("react " + a + " 👀", "react " + b + " 🤝", "react " + c + " 🤝"), h.channel.progress());
        h.agent.run(0).complete("one");
        h.agent.run(1).complete("all three");
        List<String> progress = h.channel.progress();
        int answer = progress.indexOf("send all three");
        for (String id : List.of(a, b, c)) {
            int removed = progress.indexOf("react " + id + " -");
            assertTrue(removed > progress.indexOf("send one") && removed < answer, id + " in " + progress);
        }
        assertEquals(Disposition.COLLECTED, h.dispositions.of(b));
    }

    @Test
    void aSteeredMessage_showsSteered_untilTheRunsNextOutput() {
        GatewayHarness h = harness(ReceiptMode.REACTIONS, STEER);
        h.dm("question");
        String steer = h.dm("also this");
        assertEquals(List.of("also this"), h.agent.run(0).steerTexts());
        assertEquals(List.of("react " + steer + " ⚡"), h.channel.progress());
        h.agent.run(0).complete("answer covering both");
        assertEquals(List.of("react " + steer + " ⚡", "react " + steer + " -", "send answer covering both"),
                h.channel.progress());
    }

    @Test
    void aStreamedAnswer_removesTheReceiptsBeforeItsFirstLiveMessage() {
        GatewayHarness h = harness(ReceiptMode.REACTIONS, FOLLOWUP);
        h.channel.streaming(Streaming.every(Duration.ofSeconds(1)));
        h.dm("first");
        String second = h.dm("second");
        h.agent.run(0).complete("one");
        h.agent.run(1).delta("Hel");
        List<String> progress = h.channel.progress();
        assertEquals(List.of("react " + second + " 👀", "send one", "react " + second + " ✍", "react " + second + " -",
                "send Hel"), progress);
    }

    @Test
    void aMessageRefusedByAFullQueue_getsTheNoticeThenTheDroppedMark_andOneDroppedByDropOld_too() {
        GatewayHarness h = harness(ReceiptMode.REACTIONS, new QueueSettings(QueueMode.FOLLOWUP, Duration.ZERO, 1, DropPolicy.NEW));
        h.dm("running");
        String queued = h.dm("queued");
        String refused = h.dm("refused");
        assertEquals(List.of("react " + queued + " 👀",
                "send ⚠️ Queue full (cap 1): this message was not queued. Please resend later.",
                "react " + refused + " 🙈"), h.channel.progress());

        GatewayHarness old = harness(ReceiptMode.REACTIONS, new QueueSettings(QueueMode.FOLLOWUP, Duration.ZERO, 1, DropPolicy.OLD));
        old.dm("running");
        String dropped = old.dm("dropped");
        String kept = old.dm("kept");
        assertEquals(List.of("react " + dropped + " 👀", "react " + dropped + " 🙈", "react " + kept + " 👀"),
                old.channel.progress());
        old.agent.run(0).complete("one");
        old.agent.run(1).complete("two");
        assertEquals(List.of("react " + dropped + " 👀", "react " + dropped + " 🙈"),
                old.channel.progress().stream().filter(e -> e.startsWith("react " + dropped)).toList(),
                "a dropped message keeps its mark: no answer removes it");
    }

    @Test
    void aMessageShedByAdmission_showsShed_beforeTheBusyReply() {
        GatewayHarness h = harness(ReceiptMode.REACTIONS, FOLLOWUP, true, s -> s.maxPendingRuns(1));
        h.dm("admitted");
        String shed = h.dm("refused");
        assertEquals(List.of("react " + shed + " 🤷", "send ⏳ Busy right now. Please try again in 5 s."),
                h.channel.progress());
    }

    @Test
    void onAChannelWithoutTyping_aMessageThatRunsAtOnce_showsRunning_untilItsAnswer() {
        GatewayHarness h = harness(ReceiptMode.REACTIONS, FOLLOWUP, false, s -> s);
        String id = h.dm("hi");
        assertEquals(List.of("react " + id + " ✍"), h.channel.progress());
        h.agent.run(0).complete("hello");
        assertEquals(List.of("react " + id + " ✍", "react " + id + " -", "send hello"), h.channel.progress());
    }

    @Test
    void aFailedRun_losesItsReceiptBeforeTheFailureNotice() {
        GatewayHarness h = harness(ReceiptMode.REACTIONS, FOLLOWUP, false, s -> s.failureRetries(0));
        String id = h.dm("hi");
        h.agent.run(0).fail("provider error", false);
        assertEquals(List.of("react " + id + " ✍", "react " + id + " -",
                "send ⚠️ Sorry, something went wrong while answering. (provider error)"), h.channel.progress());
    }

    @Test
    void receiptsWaitInTheChatsQueue_soNoneOvertakesOrTrailsTheAnswer() {
        GatewayHarness h = harness(ReceiptMode.REACTIONS, FOLLOWUP);
        h.outbox.pause();
        h.dm("first");
        String second = h.dm("second");
        h.agent.run(0).complete("one");
        h.agent.run(1).complete("two");
        assertEquals(List.of(), h.channel.progress(), "nothing delivered while the outbox is held");
        h.outbox.resume();
        assertEquals(List.of("react " + second + " 👀", "send one", "react " + second + " ✍",
                "react " + second + " -", "send two"), h.channel.progress());
    }

    @Test
    void aRefusedReaction_neverLosesOrDelaysTheAnswer_andNothingIsRemovedWhereNothingWasAdded() {
        GatewayHarness h = harness(ReceiptMode.REACTIONS, FOLLOWUP, false, s -> s);
        h.channel.failNextReacts(SendFailure.rateLimited(Duration.ofSeconds(30), "429"));
        String id = h.dm("hi");
        h.agent.run(0).complete("hello");
        assertEquals(List.of("react " + id + " ✍", "send hello"), h.channel.progress(),
                "a 429 on a reaction pauses nothing, and the reaction that failed is not removed");

        h.channel.failNextReacts(SendFailure.refused("REACTION_INVALID"));
        String next = h.dm("again");
        h.agent.run(1).complete("hello again");
        assertEquals(List.of("react " + id + " ✍", "send hello", "react " + next + " ✍", "send hello again"),
                h.channel.progress());
    }

    @Test
    void afterARestart_aRestoredMessage_losesTheEyesItShowedBefore_onAChannelWithoutTyping() {
        var journal = new dev.laneway.core.store.InMemoryJournal();
        var capabilities = new ChannelCapabilities(4096, false, null, true, false);
        var time = new dev.laneway.core.testing.ManualTime();
        GatewayHarness before = new GatewayHarness(s -> s.queueDefaults(FOLLOWUP), journal, time,
                new FakeChannel("test", capabilities).receipts(ReceiptMode.REACTIONS));
        String id = before.dm("question");
        assertEquals(List.of("react " + id + " ✍"), before.channel.progress());

        GatewayHarness after = new GatewayHarness(s -> s.queueDefaults(FOLLOWUP), journal,
                new dev.laneway.core.testing.ManualTime(time.instant().plusSeconds(30)),
                new FakeChannel("test", capabilities).receipts(ReceiptMode.REACTIONS));
        after.agent.run(0).complete("answer");
        assertEquals(List.of("react " + id + " ✍", "react " + id + " -", "send answer"), after.channel.progress(),
                "taken as showing a receipt (on Slack both are 👀, so the ✍ costs no call there): the answer removes it");
    }

    @Test
    void steersRacingTheRunsReplies_onRealThreads_neverShowAReceiptAfterItsRemoval() throws Exception {
        var channel = new FakeChannel("test", new ChannelCapabilities(4096, false, null, true, false))
                .receipts(ReceiptMode.REACTIONS);
        var agent = new dev.laneway.core.testing.ScriptedAgent();
        var time = new dev.laneway.core.testing.ManualTime();
        try (var executor = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            Gateway gateway = Gateway.builder().settings(GatewaySettings.builder().queueDefaults(STEER).build())
                    .clock(time).scheduler(time).executor(executor).agent(agent).channel(channel).build();
            gateway.start();
            gateway.accept(dev.laneway.core.InboundMessage.builder("test").text("question").platformMessageId("q")
                    .chatId("chat").senderId("user").build());
            dev.laneway.core.testing.Await.until("the run", () -> agent.runs().size() == 1);
            var run = agent.run(0);
            Thread replies = Thread.ofVirtual().start(() -> {
                for (int i = 0; i < 200; i++) {
                    run.reply("part " + i);
                }
            });
            List<String> steers = new java.util.ArrayList<>();
            for (int i = 0; i < 40; i++) {
                String id = "s" + i;
                steers.add(id);
                gateway.accept(dev.laneway.core.InboundMessage.builder("test").text("more " + i).platformMessageId(id)
                        .chatId("chat").senderId("user").build());
            }
            replies.join();
            run.seeSteers().complete("final");
            dev.laneway.core.testing.Await.until("the final answer", () -> channel.progress().contains("send final"));
            assertTrue(gateway.awaitIdle(Duration.ofSeconds(10)));
            List<String> progress = channel.progress();
            int answer = progress.indexOf("send final");
            for (String id : steers) {
                List<String> own = progress.stream().filter(e -> e.startsWith("react " + id + " ")).toList();
                assertEquals(List.of("react " + id + " ⚡", "react " + id + " -"), own, id + " in " + progress);
                assertTrue(progress.indexOf("react " + id + " -") < answer, id + ": removed before the last answer");
            }
            assertEquals(List.of("react q ✍", "react q -"),
                    progress.stream().filter(e -> e.startsWith("react q ")).toList());
        }
    }

    @Test
    void offMode_sendsNothingButTheAnswers() {
        GatewayHarness h = harness(ReceiptMode.OFF, COLLECT, false, s -> s);
        h.dm("running");
        h.dm("a");
        h.dm("b");
        h.agent.run(0).complete("one");
        h.agent.run(1).complete("two");
        assertEquals(List.of("send one", "send two"), h.channel.progress());
    }

    @Test
    void noticesMode_sendsTheShortTexts_forQueuedMergedAndSteered_andRemovesNothing() {
        GatewayHarness h = harness(ReceiptMode.NOTICES, COLLECT, false, s -> s);
        h.dm("running");
        h.dm("a");
        h.dm("b");
        h.agent.run(0).complete("one");
        h.agent.run(1).complete("two");
        assertEquals(List.of("send 👀 Queued: #1 in line.",
                "send 🤝 Added to the messages waiting; they are answered together.", "send one", "send two"),
                h.channel.progress());

        GatewayHarness steer = harness(ReceiptMode.NOTICES, STEER, false, s -> s);
        steer.dm("question");
        steer.dm("also this");
        steer.agent.run(0).complete("answer");
        assertEquals(List.of("send ⚡ Passed to the answer being written.", "send answer"), steer.channel.progress());
    }

    @Test
    void aSlashCommand_getsNoReceipt_itsAnswerGoesThroughItsInteraction() {
        GatewayHarness h = harness(ReceiptMode.NOTICES, FOLLOWUP, false, s -> s);
        h.dm("running");
        h.send(h.message("ask something").origin(dev.laneway.core.InboundMessage.Origin.SLASH_COMMAND));
        h.agent.run(0).complete("one");
        h.agent.run(1).complete("two");
        assertEquals(List.of("send one", "send two"), h.channel.progress(),
                "no queued notice spends the command's one answer");

        GatewayHarness reactions = harness(ReceiptMode.REACTIONS, FOLLOWUP, false, s -> s.maxPendingRuns(1));
        reactions.send(reactions.message("ask").origin(dev.laneway.core.InboundMessage.Origin.SLASH_COMMAND));
        reactions.send(reactions.message("refused").origin(dev.laneway.core.InboundMessage.Origin.SLASH_COMMAND));
        reactions.agent.run(0).complete("answer");
        assertEquals(List.of("send ⏳ Busy right now. Please try again in 5 s.", "send answer"),
                reactions.channel.progress(), "neither running nor shed marks");
    }

    @Test
    void noticesMode_namesTheWait_whenItIsLong() {
        GatewayHarness h = harness(ReceiptMode.NOTICES, FOLLOWUP, false, s -> s);
        h.dm("running");
        for (int i = 0; i < 6; i++) {
            h.dm("queued " + i);
        }
        List<String> progress = h.channel.progress();
        assertEquals("send 👀 Queued: #5 in line.", progress.get(4), progress.toString());
        assertEquals("send 👀 Queued: #6 in line, about 30 s.", progress.get(5),
                "six runs ahead at the first run time's 5 s: 30 s, long enough to name");
    }

    @Test
    void aLostLease_stopsTheSessionWithoutADroppedMark_theNewHolderAnswersItsMessages() {
        GatewayHarness h = harness(ReceiptMode.REACTIONS, FOLLOWUP);
        String running = h.dm("running");
        String queued = h.dm("queued");
        assertEquals(List.of("react " + queued + " 👀"), h.channel.progress());

        h.gateway.abandonLostSession(dev.laneway.core.SessionKey.of("test:dm:user")); // what the fleet calls when the lease is gone (§17)
        h.agent.run(0).complete("too late");

        assertEquals(List.of("react " + queued + " 👀"), h.channel.progress(),
                "no 🙈 on either message: the lease's new holder answers them (D230)");
        assertEquals(Disposition.STOPPED, h.dispositions.of(queued));
    }
}

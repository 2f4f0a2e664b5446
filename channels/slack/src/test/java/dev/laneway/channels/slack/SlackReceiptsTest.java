package dev.laneway.channels.slack;

import static dev.laneway.channels.slack.SlackEvents.dm;
import static dev.laneway.channels.slack.SlackEvents.eventsApi;
import static dev.laneway.channels.slack.SlackEvents.newEnvelopeId;
import static dev.laneway.channels.slack.SlackEvents.ts;
import static dev.laneway.core.testing.Await.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Route;
import dev.laneway.core.SessionKey;
import dev.laneway.core.channel.Receipt;
import dev.laneway.core.channel.ReceiptMode;
import dev.laneway.core.command.CommandHandler;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Receipts as Slack reactions through the real gateway and SDK against the fake Slack
 * (docs/behaviour.md §16.5): 👀 while a message waits or runs, 🤝 for the messages merged into a
 * collect batch, 🙈 for those {@code /stop} cleared; every receipt of an answered message is
 * removed before its answer is posted, and none is added after it.
 */
class SlackReceiptsTest {

    @Test
    void aBurst_showsEyesAndHandshakes_andEveryReceiptGoesBeforeItsAnswer() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, CommandHandler.NONE)) {
            String first = ts();
            rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "first", first)));
            var run = rig.awaitRun(0);
            until("👀 on the running message (Slack has no typing indicator)", () -> shown(rig, first).equals(Set.of("eyes")));
            List<String> burst = List.of(ts(), ts(), ts());
            for (String ts : burst) {
                rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "more " + ts, ts)));
            }
            until("a receipt on each of the burst", () -> rig.api.calls("reactions.add").size() == 4);
            assertEquals(Set.of("eyes"), shown(rig, burst.get(0)), "the first of the batch waits");
            assertEquals(Set.of("handshake"), shown(rig, burst.get(1)), "the others are merged into its batch");
            assertEquals(Set.of("handshake"), shown(rig, burst.get(2)));

            run.complete("answer to the first");
            var collected = rig.awaitRun(1);
            until("the first message's 👀 removed", () -> shown(rig, first).isEmpty());
            collected.complete("answer to the burst");
            until("the burst's answer", () -> rig.api.posts().size() == 2);
            until("every receipt removed", () -> burst.stream().allMatch(ts -> shown(rig, ts).isEmpty()));

            List<FakeSlackApi.Call> calls = rig.api.calls();
            assertTrue(lastReactionCall(calls, first) < indexOfPost(calls, "answer to the first"),
                    "the running message's 👀 goes before its answer: " + calls);
            int reply = indexOfPost(calls, "answer to the burst");
            for (String ts : burst) {
                assertTrue(lastReactionCall(calls, ts) < reply, "every receipt call on " + ts + " comes before the reply");
            }
        }
    }

    @Test
    void stop_marksTheQueuedMessagesItClears_andRemovesTheRunningOnesEyes() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, CommandHandler.NONE)) {
            String running = ts();
            rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "think", running)));
            rig.awaitRun(0);
            String queued1 = ts();
            String queued2 = ts();
            rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "queued one", queued1)));
            rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "queued two", queued2)));
            until("a receipt on all three", () -> rig.api.calls("reactions.add").size() == 3);

            assertEquals(2, rig.gateway().stop(SessionKey.of("slack:dm:U1")));
            until("the cleared messages marked 🙈", () -> shown(rig, queued1).equals(Set.of("see_no_evil"))
                    && shown(rig, queued2).equals(Set.of("see_no_evil")));
            until("the stopped run's message loses its 👀", () -> shown(rig, running).isEmpty());
            assertEquals(1, rig.agent.runs().size(), "the cleared messages never ran");
        }
    }

    @Test
    void receiptsOff_addsNoReaction() throws Exception {
        try (SlackRig rig = SlackRig.gateway(ReceiptMode.OFF)) {
            rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "hello", ts())));
            rig.awaitRun(0).complete("hi");
            until("the reply", () -> rig.api.posts().size() == 1);
            rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "again", ts())));
            rig.awaitRun(1).complete("hi again");
            until("the second reply", () -> rig.api.posts().size() == 2);
            assertEquals(List.of(), rig.api.calls("reactions.add"));
            assertEquals(List.of(), rig.api.calls("reactions.remove"));
        }
    }

    @Test
    void aRateLimitedReaction_isNotWaitedOut_andNeverHoldsUpTheAnswers() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, CommandHandler.NONE)) {
            rig.api.rateLimitReactions(100); // each answered 429, Retry-After a minute
            rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "first", ts())));
            var run = rig.awaitRun(0);
            rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "second", ts())));
            until("the rate-limited reactions", () -> rig.api.calls("reactions.add").size() == 2);
            run.complete("one");
            rig.awaitRun(1).complete("two");
            until("both answers, well before the minute (D231)", () -> rig.api.posts().size() == 2);
        }
    }

    @Test
    void aRemoveAnsweredNoReaction_stillAddsTheNewReceipt_andAnAddAlreadyShownIsNoFailure() throws Exception {
        try (SlackRig rig = SlackRig.recording(true)) {
            String ts = ts();
            Route route = new Route("slack", "default", "D1", null, ts);
            rig.api.failReactions("reactions.remove", "no_reaction", "no_reaction");
            rig.api.failReactions("reactions.add", "already_reacted");

            rig.channel.react(route, Receipt.DROPPED, Receipt.QUEUED); // 👀 was never shown here (D232)
            rig.channel.react(route, null, Receipt.QUEUED);
            rig.channel.react(route, Receipt.QUEUED, null); // 👀 shown already, by the instance that received it

            List<String> calls = rig.api.calls().stream().filter(call -> call.method().startsWith("reactions."))
                    .map(call -> call.method() + " " + call.param("name")).toList();
            assertEquals(List.of("reactions.remove eyes", "reactions.add see_no_evil", "reactions.remove eyes",
                    "reactions.add eyes"), calls);
        }
    }

    /** The reactions a message shows now, by replaying the add and remove calls on it. */
    private static Set<String> shown(SlackRig rig, String ts) {
        Set<String> shown = new LinkedHashSet<>();
        for (FakeSlackApi.Call call : new ArrayList<>(rig.api.calls())) {
            if (!ts.equals(call.param("timestamp")) || call.status() != 200) {
                continue;
            }
            if (call.method().equals("reactions.add")) {
                shown.add(call.param("name"));
            } else if (call.method().equals("reactions.remove")) {
                shown.remove(call.param("name"));
            }
        }
        return shown;
    }

    private static int lastReactionCall(List<FakeSlackApi.Call> calls, String ts) {
        int last = -1;
        for (int i = 0; i < calls.size(); i++) {
            if (calls.get(i).method().startsWith("reactions.") && ts.equals(calls.get(i).param("timestamp"))) {
                last = i;
            }
        }
        return last;
    }

    private static int indexOfPost(List<FakeSlackApi.Call> calls, String text) {
        for (int i = 0; i < calls.size(); i++) {
            if (calls.get(i).method().equals("chat.postMessage") && text.equals(calls.get(i).param("text"))) {
                return i;
            }
        }
        throw new AssertionError("no post of " + text);
    }
}

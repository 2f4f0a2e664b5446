package dev.laneway.channels.slack;

import static dev.laneway.channels.slack.SlackEvents.dm;
import static dev.laneway.channels.slack.SlackEvents.eventsApi;
import static dev.laneway.channels.slack.SlackEvents.newEnvelopeId;
import static dev.laneway.channels.slack.SlackEvents.ts;
import static dev.laneway.core.testing.Await.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.SessionKey;
import dev.laneway.core.command.CommandHandler;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The 👀 reaction through the real gateway and SDK: one on every accepted message, each removed
 * once that message has ended and its answer was sent, whatever became of it.
 */
class SlackProgressReactionTest {

    @Test
    void aBurst_getsEyesOnEveryMessage_andAllAreRemovedOnceTheCollectedReplyIsSent() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, CommandHandler.NONE)) {
            String first = ts();
            rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "first", first)));
            var run = rig.awaitRun(0);
            List<String> burst = List.of(ts(), ts(), ts());
            for (String ts : burst) {
                rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "more " + ts, ts)));
            }
            until("👀 on all four", () -> reacted(rig, "reactions.add").size() == 4);
            assertTrue(reacted(rig, "reactions.add").containsAll(burst));
            assertEquals(List.of(), reacted(rig, "reactions.remove"), "nothing removed while unanswered");

            run.complete("answer to the first");
            var collected = rig.awaitRun(1);
            until("the first message's 👀 removed", () -> reacted(rig, "reactions.remove").equals(List.of(first)));
            collected.complete("answer to the burst");
            until("every 👀 removed", () -> reacted(rig, "reactions.remove").size() == 4);

            List<FakeSlackApi.Call> calls = rig.api.calls();
            int reply = indexOfPost(calls, "answer to the burst");
            for (String ts : burst) {
                assertTrue(indexOf(calls, "reactions.remove", ts) > reply, "the 👀 on " + ts + " goes after the reply");
            }
        }
    }

    @Test
    void stop_removesTheEyesOfTheQueuedMessagesItClears() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, CommandHandler.NONE)) {
            String running = ts();
            rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "think", running)));
            rig.awaitRun(0);
            String queued1 = ts();
            String queued2 = ts();
            rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "queued one", queued1)));
            rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "queued two", queued2)));
            until("👀 on all three", () -> reacted(rig, "reactions.add").size() == 3);

            assertEquals(2, rig.gateway().stop(SessionKey.of("slack:dm:U1")));
            until("every 👀 removed, the aborted run's message's too",
                    () -> reacted(rig, "reactions.remove").containsAll(List.of(running, queued1, queued2)));
            assertEquals(3, reacted(rig, "reactions.remove").size(), "each removed once");
            assertEquals(1, rig.agent.runs().size(), "the cleared messages never ran");
        }
    }

    private static List<String> reacted(SlackRig rig, String method) {
        return rig.api.calls(method).stream().map(call -> call.param("timestamp")).toList();
    }

    private static int indexOf(List<FakeSlackApi.Call> calls, String method, String ts) {
        for (int i = 0; i < calls.size(); i++) {
            if (calls.get(i).method().equals(method) && ts.equals(calls.get(i).param("timestamp"))) {
                return i;
            }
        }
        return -1;
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

package dev.laneway.channels.discord;

import static dev.laneway.channels.discord.DiscordJson.ALICE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.channel.ReceiptMode;
import dev.laneway.core.testing.Await;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Receipts as the bot's reactions through JDA against the fake Discord REST API
 * (docs/behaviour.md §16.5): 👀 on a waiting message, replaced by ✍️ when its run starts, removed
 * right before its answer is posted; a refused reaction never holds up the answer.
 */
class DiscordReceiptsTest {

    private static final QueueSettings FOLLOWUP = new QueueSettings(QueueMode.FOLLOWUP, Duration.ZERO, 20, DropPolicy.SUMMARIZE);
    private final String dmChannel = FakeDiscordRest.dmChannel(ALICE);

    @Test
    void aQueuedMessage_showsEyes_thenWriting_andLosesItBeforeItsAnswer() throws Exception {
        try (DiscordRig rig = DiscordRig.options().settings(s -> s.queueDefaults(FOLLOWUP)).start()) {
            rig.dm("7601", ALICE, "first");
            Await.until("the agent run", () -> rig.agent.runs().size() == 1);
            rig.dm("7602", ALICE, "second");
            Await.until("👀 on the waiting message", () -> rig.rest.reactionsIn(dmChannel).size() == 1);
            rig.agent.run(0).complete("one");
            Await.until("the second run", () -> rig.agent.runs().size() == 2);
            rig.agent.run(1).complete("two");
            Await.until("the second answer", () -> rig.rest.messagesTo(dmChannel).size() == 2);
            assertTrue(rig.gateway.awaitIdle(Await.DEFAULT));
            assertEquals(List.of("+7602 👀", "-7602 👀", "+7602 ✍️", "-7602 ✍️"), rig.rest.reactionsIn(dmChannel),
                    "the message that ran at once (7601) showed none: the typing indicator says it");

            List<FakeDiscordRest.Request> requests = rig.rest.requests();
            int lastReaction = -1;
            int answer = -1;
            for (int i = 0; i < requests.size(); i++) {
                if (requests.get(i).path().contains("/reactions/")) {
                    lastReaction = i;
                }
                if (requests.get(i).is("POST", "channels/" + dmChannel + "/messages")
                        && requests.get(i).content().equals("two")) {
                    answer = i;
                }
            }
            assertTrue(lastReaction >= 0 && lastReaction < answer, "every reaction call comes before the answer");
        }
    }

    @Test
    void aRefusedReaction_neverHoldsUpTheAnswer() throws Exception {
        try (DiscordRig rig = DiscordRig.options().settings(s -> s.queueDefaults(FOLLOWUP)).start()) {
            rig.rest.refuseNextReactions(100);
            rig.dm("7611", ALICE, "first");
            Await.until("the agent run", () -> rig.agent.runs().size() == 1);
            rig.dm("7612", ALICE, "second");
            Await.until("the refused 👀", () -> rig.rest.reactionsIn(dmChannel).size() == 1);
            rig.agent.run(0).complete("one");
            Await.until("the second run", () -> rig.agent.runs().size() == 2);
            rig.agent.run(1).complete("two");
            Await.until("both answers", () -> rig.rest.messagesTo(dmChannel).size() == 2);
            assertTrue(rig.gateway.awaitIdle(Await.DEFAULT));
            assertEquals(List.of("+7612 👀", "+7612 ✍️"), rig.rest.reactionsIn(dmChannel),
                    "nothing is removed that was never added");
        }
    }

    @Test
    void aRateLimitedReaction_isGivenUp_andNeverHoldsUpTheAnswer() throws Exception {
        try (DiscordRig rig = DiscordRig.options().settings(s -> s.queueDefaults(FOLLOWUP)).start()) {
            rig.rest.rateLimitNextReactions(100); // each answered 429 with a minute's retry_after
            rig.dm("7631", ALICE, "first");
            Await.until("the agent run", () -> rig.agent.runs().size() == 1);
            rig.dm("7632", ALICE, "second");
            Await.until("the rate-limited 👀", () -> rig.rest.reactionsIn(dmChannel).size() == 1);
            long start = System.nanoTime();
            rig.agent.run(0).complete("one");
            Await.until("the second run", () -> rig.agent.runs().size() == 2);
            rig.agent.run(1).complete("two");
            Await.until("both answers", () -> rig.rest.messagesTo(dmChannel).size() == 2);
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(tookMillis < 20_000, "the answers waited " + tookMillis + " ms: no reaction waits out its 429 (D231)");
        }
    }

    @Test
    void receiptsOff_addsNoReaction() throws Exception {
        try (DiscordRig rig = DiscordRig.options().settings(s -> s.queueDefaults(FOLLOWUP)).receipts(ReceiptMode.OFF)
                .start()) {
            rig.dm("7621", ALICE, "first");
            Await.until("the agent run", () -> rig.agent.runs().size() == 1);
            rig.dm("7622", ALICE, "second");
            rig.agent.run(0).complete("one");
            Await.until("the second run", () -> rig.agent.runs().size() == 2);
            rig.agent.run(1).complete("two");
            Await.until("both answers", () -> rig.rest.messagesTo(dmChannel).size() == 2);
            assertEquals(List.of(), rig.rest.reactionsIn(dmChannel));
        }
    }
}

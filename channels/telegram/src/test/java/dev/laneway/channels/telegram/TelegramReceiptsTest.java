package dev.laneway.channels.telegram;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.channel.ReceiptMode;
import dev.laneway.core.testing.Await;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Receipts as the bot's reactions ({@code setMessageReaction}) through the real SDK against the fake
 * Bot API (docs/behaviour.md §16.5): a message that waits shows 👀, ✍ once its run starts, and
 * loses it right before its answer's {@code sendMessage}; a message that runs at once shows none
 * (the typing indicator says it).
 */
class TelegramReceiptsTest {

    private static final QueueSettings FOLLOWUP = new QueueSettings(QueueMode.FOLLOWUP, Duration.ZERO, 20, DropPolicy.SUMMARIZE);

    @Test
    void aQueuedMessage_showsEyes_thenWriting_andLosesItRightBeforeItsAnswer() throws Exception {
        try (Rig rig = Rig.with().gateway(s -> s.queueDefaults(FOLLOWUP)).start()) {
            int first = rig.api.dm(Tg.ANN, "first");
            var run = rig.run(0);
            int second = rig.api.dm(Tg.ANN, "second");
            Await.until("👀 on the waiting message", () -> rig.api.calls("setMessageReaction").size() == 1);
            run.complete("one");
            rig.run(1).complete("two");
            Await.until("the second answer", () -> rig.api.sentTo(Tg.ANN.id()).size() == 2);
            assertEquals(List.of("react " + second + " 👀", "send one", "react " + second + " ✍",
                    "react " + second + " -", "send two"), trace(rig));
            assertEquals(List.of(), rig.api.calls("setMessageReaction").stream()
                    .filter(call -> call.body().path("message_id").asInt() == first).toList(),
                    "the message that ran at once showed no receipt");
        }
    }

    @Test
    void aRateLimitedReaction_isNotWaitedOut_andNeverHoldsUpTheAnswers() throws Exception {
        try (Rig rig = Rig.with().gateway(s -> s.queueDefaults(FOLLOWUP)).start()) {
            rig.api.rateLimitNextReactions(100); // each answered 429, retry after a minute
            rig.api.dm(Tg.ANN, "first");
            var run = rig.run(0);
            rig.api.dm(Tg.ANN, "second");
            Await.until("the rate-limited 👀", () -> rig.api.calls("setMessageReaction").size() == 1);
            run.complete("one");
            rig.run(1).complete("two");
            Await.until("both answers, well before the minute (D231)", () -> rig.api.sentTo(Tg.ANN.id()).size() == 2);
        }
    }

    @Test
    void aChatThatRefusesTheReaction_stillGetsEveryAnswer_andNoRemovalIsTried() throws Exception {
        try (Rig rig = Rig.with().gateway(s -> s.queueDefaults(FOLLOWUP)).start()) {
            rig.api.refuseNextReactions(100);
            rig.api.dm(Tg.ANN, "first");
            var run = rig.run(0);
            int second = rig.api.dm(Tg.ANN, "second");
            Await.until("the refused 👀", () -> rig.api.calls("setMessageReaction").size() == 1);
            run.complete("one");
            rig.run(1).complete("two");
            Await.until("both answers", () -> rig.api.sentTo(Tg.ANN.id()).size() == 2);
            assertEquals(List.of("react " + second + " 👀", "send one", "react " + second + " ✍", "send two"),
                    trace(rig), "what was refused is not removed; the answers are not held up");
        }
    }

    @Test
    void receiptsOff_sendsNoReaction() throws Exception {
        try (Rig rig = Rig.with().gateway(s -> s.queueDefaults(FOLLOWUP))
                .settings(s -> s.withReceipts(ReceiptMode.OFF)).start()) {
            rig.api.dm(Tg.ANN, "first");
            var run = rig.run(0);
            rig.api.dm(Tg.ANN, "second");
            run.complete("one");
            rig.run(1).complete("two");
            Await.until("both answers", () -> rig.api.sentTo(Tg.ANN.id()).size() == 2);
            assertEquals(List.of(), rig.api.calls("setMessageReaction"));
        }
    }

    /** The reactions and messages the bot sent, in order: {@code react <id> <emoji>} ({@code -}: none), {@code send <text>}. */
    private static List<String> trace(Rig rig) {
        return rig.api.callsOf("setMessageReaction", "sendMessage").stream().map(call -> {
            if (call.method().equals("sendMessage")) {
                return "send " + call.body().path("text").asText();
            }
            var reaction = call.body().path("reaction");
            return "react " + call.body().path("message_id").asInt() + " "
                    + (reaction.isEmpty() ? "-" : reaction.get(0).path("emoji").asText());
        }).toList();
    }
}

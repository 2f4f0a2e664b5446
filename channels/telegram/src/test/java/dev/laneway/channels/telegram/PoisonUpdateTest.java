package dev.laneway.channels.telegram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.laneway.core.testing.Await;
import dev.laneway.core.testing.LogCapture;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * One update the SDK cannot read never wedges the bot: it is stepped over with one WARN line, the
 * updates around it are answered, and polling goes on past it. Regression tests for a bot that
 * stopped answering everyone (the SDK failed the whole batch and asked for it again, forever).
 */
class PoisonUpdateTest {

    /** A DM the SDK cannot read: its {@code date} is an object, not a number of seconds. */
    private static ObjectNode unreadableDm(Rig rig, Tg.Person from) {
        ObjectNode message = Tg.message(rig.api.nextMessageId(), Tg.privateChat(from), from, "poison");
        message.putObject("date").put("seconds", 1);
        return message;
    }

    @Test
    void unreadableUpdateBetweenTwoGoodOnes_isSkippedWithAWarning_andTheOthersAreAnswered() throws Exception {
        EchoAgent echo = new EchoAgent();
        try (LogCapture everything = LogCapture.all(); LogCapture warnings = LogCapture.of(PoisonUpdateInterceptor.class);
             Rig rig = Rig.with().agent(echo).start()) {
            int[] bad = new int[1];
            rig.api.inOneBatch(() -> {
                rig.api.dm(Tg.ANN, "before");
                bad[0] = rig.api.push("message", unreadableDm(rig, Tg.ANN));
                rig.api.dm(Tg.BOB, "after");
            });

            Await.until("Ann's reply", () -> rig.api.sentTo(Tg.ANN.id()).size() == 1);
            Await.until("Bob's reply", () -> rig.api.sentTo(Tg.BOB.id()).size() == 1);
            assertEquals(List.of("echo: before"), rig.api.textsTo(Tg.ANN.id()));
            assertEquals(List.of("echo: after"), rig.api.textsTo(Tg.BOB.id()));
            assertEquals(3, batchHolding(rig, bad[0]).size(), "the three went out in one getUpdates answer");
            assertEquals(1, rig.api.timesServed(bad[0]), "the batch was not fetched again");
            assertEquals(List.of("telegram: skipping update " + bad[0] + ", which the SDK cannot read (message.date: "
                    + "Cannot deserialize value of type `java.lang.Integer` from Object value (token `JsonToken.START_OBJECT`))"),
                    warnings.warnings());

            rig.api.dm(Tg.ANN, "later");
            Await.until("the later reply", () -> rig.api.sentTo(Tg.ANN.id()).size() == 2);
            rig.awaitQuiet();
            assertEquals(Set.of("before", "after", "later"), Set.copyOf(echo.prompts()));
            assertEquals(3, echo.prompts().size(), "the unreadable update never reached the gateway");
            assertEquals(3, rig.dispositions.size());
            assertTrue(rig.channel.connected());
            assertTrue(everything.lines().stream().noneMatch(line -> line.mentions(FakeBotApi.TOKEN)),
                    "the bot token (in every request path) is never logged");
        }
    }

    @Test
    void unreadableUpdateLastInItsBatch_isConfirmedByTheNextPoll_insteadOfFetchedAgain() throws Exception {
        try (Rig rig = Rig.with().agent(new EchoAgent()).start()) {
            int[] bad = new int[1];
            rig.api.inOneBatch(() -> {
                rig.api.dm(Tg.ANN, "hello");
                bad[0] = rig.api.push("message", unreadableDm(rig, Tg.ANN));
            });

            int next = rig.api.polls().awaitOffsetPast(bad[0]);
            assertEquals(bad[0] + 1, rig.api.polls().await(next).offset(), "the next getUpdates asks past it");
            assertTrue(rig.api.polls().all().subList(0, next).stream().allMatch(poll -> poll.offset() < bad[0]),
                    "no poll confirmed the good update alone (which would fetch the bad one again)");
            assertEquals(1, rig.api.timesServed(bad[0]), "served once: no re-fetch loop");
            assertEquals(2, batchHolding(rig, bad[0]).size());
            assertEquals(0, rig.channel.failedPolls(), "no poll failed on its account");
            Await.until("the reply", () -> rig.api.sentTo(Tg.ANN.id()).size() == 1);
            assertEquals(List.of("echo: hello"), rig.api.textsTo(Tg.ANN.id()));
        }
    }

    @Test
    void updateWithoutAnId_failsThePollWithBackoff_insteadOfEndingPollingForGood() throws Exception {
        try (LogCapture everything = LogCapture.all(); LogCapture warnings = LogCapture.of(PoisonUpdateInterceptor.class);
             Rig rig = Rig.with().agent(new EchoAgent()).start()) {
            rig.api.pushWithoutId("message", Tg.message(rig.api.nextMessageId(), Tg.privateChat(Tg.ANN), Tg.ANN, "hi"));

            // it cannot be stepped over (no offset to move past); handed to the SDK, its null id would
            // throw inside the SDK's polling task and end polling silently. Retried polls show it did not.
            Await.until("three failed polls", () -> rig.channel.failedPolls() >= 3);
            assertFalse(rig.channel.connected(), "reported, not hidden");
            assertTrue(warnings.warnings().getFirst().contains("without a usable update_id"), warnings.warnings().toString());
            assertTrue(everything.lines().stream().noneMatch(line -> line.mentions(FakeBotApi.TOKEN)),
                    "the bot token (in every request path) is never logged");
        }
    }

    /** The one {@code getUpdates} answer that held update {@code updateId}. */
    private static JsonNode batchHolding(Rig rig, int updateId) {
        List<JsonNode> batches = rig.api.calls("getUpdates").stream().map(FakeBotApi.Call::result)
                .filter(result -> result.findValues("update_id").stream().anyMatch(id -> id.asInt() == updateId))
                .toList();
        assertEquals(1, batches.size(), "answers holding update " + updateId);
        return batches.getFirst();
    }
}

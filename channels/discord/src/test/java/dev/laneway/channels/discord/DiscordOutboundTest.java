package dev.laneway.channels.discord;

import static dev.laneway.channels.discord.DiscordJson.ALICE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.channel.SendFailure;
import dev.laneway.core.testing.Await;
import java.util.List;
import net.dv8tion.jda.api.utils.data.DataArray;
import net.dv8tion.jda.api.utils.data.DataObject;
import org.junit.jupiter.api.Test;

/** What goes out: chunking at 2000, allowed mentions, and a 429 from Discord handled. */
class DiscordOutboundTest {

    private final String dmChannel = FakeDiscordRest.dmChannel(ALICE);

    @Test
    void longReply_isSplitAtTwoThousandCharacters_neverInsideACodeFence() throws Exception {
        String prose = "This sentence is part of a long explanation. ".repeat(33);        // ~1500 chars
        String code = "```java\n" + "int value = compute(1, 2, 3); // step\n".repeat(24) + "```"; // ~900 chars
        String reply = prose.strip() + "\n\n" + code + "\n\nThat is all.";
        try (DiscordRig rig = DiscordRig.start()) {
            rig.dm("7401", ALICE, "explain");
            Await.until("the agent run", () -> rig.agent.runs().size() == 1);
            rig.agent.run(0).complete(reply);

            Await.until("the reply chunks", () -> rig.rest.messagesTo(dmChannel).size() >= 2);
            assertTrue(rig.gateway.awaitIdle(Await.DEFAULT));
            List<String> chunks = rig.rest.messagesTo(dmChannel).stream().map(FakeDiscordRest.Request::content).toList();
            assertEquals(2, chunks.size(), chunks.toString());
            for (String chunk : chunks) {
                assertTrue(chunk.length() <= 2000, "chunk of " + chunk.length());
                assertEquals(0, countFences(chunk) % 2, "a fence is never left open:\n" + chunk);
            }
            assertEquals(prose.strip(), chunks.get(0), "the cut falls before the fence");
            assertTrue(chunks.get(1).startsWith("```java\n"));
            assertEquals(reply.replaceAll("\\s+", ""), String.join("", chunks).replaceAll("\\s+", ""), "nothing lost");
        }
    }

    @Test
    void replies_mayPingOnlyTheRepliedToUser() throws Exception {
        try (DiscordRig rig = DiscordRig.start()) {
            rig.dm("7411", ALICE, "ping everyone please");
            Await.until("the agent run", () -> rig.agent.runs().size() == 1);
            rig.agent.run(0).complete("@everyone @here <@&2101> <@3001> hello");

            Await.until("the reply", () -> rig.rest.messagesTo(dmChannel).size() == 1);
            DataObject body = rig.rest.messagesTo(dmChannel).get(0).json();
            assertEquals("@everyone @here <@&2101> <@3001> hello", body.getString("content"), "text unchanged");
            DataObject allowed = body.getObject("allowed_mentions");
            assertEquals(0, allowed.getArray("parse").length(), "no @everyone, roles or users are parsed");
            assertTrue(allowed.optArray("users").map(DataArray::isEmpty).orElse(true));
            assertTrue(allowed.optArray("roles").map(DataArray::isEmpty).orElse(true));
            assertTrue(allowed.getBoolean("replied_user"), "the person asked is notified");
            assertEquals("7411", body.getObject("message_reference").getString("message_id"));
        }
    }

    @Test
    void rateLimitedSend_waitsForRetryAfter_isDelivered_andIsCounted() throws Exception {
        try (DiscordRig rig = DiscordRig.start()) {
            rig.rest.rateLimitNext(1);
            rig.dm("7421", ALICE, "hello");
            Await.until("the agent run", () -> rig.agent.runs().size() == 1);
            rig.agent.run(0).complete("sent after the 429");

            Await.until("the retried send", () -> rig.rest.messagesTo(dmChannel).size() == 2);
            assertTrue(rig.gateway.awaitIdle(Await.DEFAULT));
            List<FakeDiscordRest.Request> posts = rig.rest.messagesTo(dmChannel);
            assertEquals(2, posts.size(), "one 429, one success, no more");
            assertEquals("sent after the 429", posts.get(0).content());
            assertEquals("sent after the 429", posts.get(1).content());
            long waitedMs = (posts.get(1).arrivedNanos() - posts.get(0).arrivedNanos()) / 1_000_000;
            // the fake's Retry-After is 1 s (header and X-RateLimit-Reset-After; the body says 0.5 s)
            assertTrue(waitedMs >= 950, "the retry came after " + waitedMs + " ms, before Retry-After ran out");
            assertEquals(List.of("discord"), rig.rateLimits, "the 429 is counted for operators");
        }
    }

    @Test
    void aLongReply_pingsItsAuthorOnce_notOncePerChunk() throws Exception {
        String reply = "A sentence of a long answer. ".repeat(60).strip() + "\n\n" + "And more of it. ".repeat(60).strip();
        try (DiscordRig rig = DiscordRig.start()) {
            rig.guildMessage("7431", DiscordJson.TEXT_CHANNEL, ALICE, "<@" + DiscordJson.BOT_ID + "> explain",
                    DiscordJson.BOT_ID);
            Await.until("the agent run", () -> rig.agent.runs().size() == 1);
            rig.agent.run(0).complete(reply);

            Await.until("both chunks", () -> rig.rest.messagesTo(DiscordJson.TEXT_CHANNEL).size() == 2);
            List<DataObject> bodies = rig.rest.messagesTo(DiscordJson.TEXT_CHANNEL).stream()
                    .map(FakeDiscordRest.Request::json).toList();
            assertTrue(bodies.get(0).getObject("allowed_mentions").getBoolean("replied_user"), "the first chunk notifies");
            assertFalse(bodies.get(1).getObject("allowed_mentions").getBoolean("replied_user", false),
                    "later chunks reference the message silently");
            for (DataObject body : bodies) {
                assertEquals("7431", body.getObject("message_reference").getString("message_id"));
                assertEquals(0, body.getObject("allowed_mentions").getArray("parse").length());
            }
        }
    }

    @Test
    void anAnswerToAnInteractionThatIsNoLongerPending_goesToTheChannel() throws Exception {
        try (DiscordRig rig = DiscordRig.start()) {
            var route = new dev.laneway.core.Route("discord", "default", DiscordJson.TEXT_CHANNEL, null, "interaction:4242");
            rig.channel.send(route, "late answer");

            List<FakeDiscordRest.Request> posts = rig.rest.messagesTo(DiscordJson.TEXT_CHANNEL);
            assertEquals(1, posts.size());
            assertEquals("late answer", posts.get(0).content());
            assertTrue(posts.get(0).json().isNull("message_reference"), "nothing to reference");
        }
    }

    /**
     * A channel no shard here has in its cache is addressed by id (its shard may be connected by
     * another instance of a fleet: docs/behaviour.md §17, "Ingress"); Discord refuses one the bot
     * cannot reach, and that is not worth trying again.
     */
    @Test
    void typingAndReplies_toAChannelDiscordDoesNotKnow_areRefusedByDiscordWithAClearError() throws Exception {
        try (DiscordRig rig = DiscordRig.start()) {
            var route = new dev.laneway.core.Route("discord", "default", "2999", null, null);
            SendFailure e = org.junit.jupiter.api.Assertions.assertThrows(SendFailure.class,
                    () -> rig.channel.send(route, "hi"));
            assertEquals(SendFailure.Kind.REFUSED, e.kind(), "not worth trying again");
            assertTrue(e.getMessage().contains("Unknown Channel"), e.getMessage());
            SendFailure typing = org.junit.jupiter.api.Assertions.assertThrows(SendFailure.class,
                    () -> rig.channel.typing(route));
            assertEquals(SendFailure.Kind.REFUSED, typing.kind());
            assertTrue(typing.getMessage().contains("Unknown Channel"), typing.getMessage());
            assertEquals(1, rig.rest.messagesTo("2999").size(), "asked Discord once, not again");
        }
    }

    @Test
    void aTextOverTheLimit_isRefusedBeforeAnythingIsSent_theOutboxIsTheOnlyChunker() throws Exception {
        // splitting moved to the outbox: longReply_isSplitAtTwoThousandCharacters_neverInsideACodeFence
        try (DiscordRig rig = DiscordRig.start()) {
            var route = new dev.laneway.core.Route("discord", "default", DiscordJson.TEXT_CHANNEL, null, null);
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> rig.channel.send(route, "x".repeat(2001)));
            assertEquals("a Discord message holds at most 2000 characters, got 2001 (the outbox chunks replies)",
                    e.getMessage());
            assertEquals(List.of(), rig.rest.messagesTo(DiscordJson.TEXT_CHANNEL), "nothing was sent");
            rig.channel.send(route, "x".repeat(2000));
            assertEquals(1, rig.rest.messagesTo(DiscordJson.TEXT_CHANNEL).size(), "exactly the limit goes as one message");
        }
    }

    private static int countFences(String text) {
        int count = 0;
        for (int at = text.indexOf("```"); at >= 0; at = text.indexOf("```", at + 3)) {
            count++;
        }
        return count;
    }
}

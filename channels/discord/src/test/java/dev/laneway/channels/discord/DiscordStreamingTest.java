package dev.laneway.channels.discord;

import static dev.laneway.channels.discord.DiscordJson.ALICE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.channel.Streaming;
import dev.laneway.core.testing.Await;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Answers streamed into a Discord channel: send, then edit (docs/behaviour.md §16). */
class DiscordStreamingTest {

    private final String dmChannel = FakeDiscordRest.dmChannel(ALICE);

    @Test
    void streamedAnswer_isOnePostThenEdits_andEndsAsTheNonStreamedAnswer() throws Exception {
        String answer = "Lanes keep **one run** per conversation.";
        List<String> plain;
        try (DiscordRig rig = DiscordRig.options().streaming(Streaming.OFF).start()) {
            rig.dm("7501", ALICE, "explain");
            Await.until("the agent run", () -> rig.agent.runs().size() == 1);
            rig.agent.run(0).delta("Lanes keep").complete(answer);
            Await.until("the reply", () -> rig.rest.screen(dmChannel).size() == 1);
            plain = rig.rest.screen(dmChannel);
            assertEquals(List.of(), rig.rest.editsIn(dmChannel));
        }
        try (ManualTime time = ManualTime.running();
             DiscordRig rig = DiscordRig.options().time(time, time).start()) {
            rig.dm("7502", ALICE, "explain");
            Await.until("the agent run", () -> rig.agent.runs().size() == 1);
            var run = rig.agent.run(0);
            run.delta("Lanes keep");
            Await.until("the first text", () -> rig.rest.messagesTo(dmChannel).size() == 1);
            assertEquals("Lanes keep", rig.rest.messagesTo(dmChannel).get(0).content());
            run.delta(" **one run**");
            time.advance(Duration.ofSeconds(1));
            Await.until("an edit", () -> rig.rest.editsIn(dmChannel).size() == 1);
            assertEquals("Lanes keep **one run**", rig.rest.editsIn(dmChannel).get(0).json().getString("content"));
            run.complete(answer);
            Await.until("the final edit", () -> rig.rest.editsIn(dmChannel).size() == 2);
            assertTrue(rig.gateway.awaitIdle(Await.DEFAULT));
            assertEquals(plain, rig.rest.screen(dmChannel), "what the user finally sees equals the plain reply");
            assertEquals(1, rig.rest.messagesTo(dmChannel).size(), "one message, then edits");
            assertEquals(1, rig.rest.editsIn(dmChannel).stream().map(FakeDiscordRest.Request::path).distinct().count(),
                    "every edit is of the one posted message");
        }
    }

    @Test
    void aRateLimitedEdit_isWaitedOutByJda_andTheAnswerEndsWhole_once() throws Exception {
        try (ManualTime time = ManualTime.running();
             DiscordRig rig = DiscordRig.options().time(time, time).start()) {
            rig.dm("7511", ALICE, "go");
            Await.until("the agent run", () -> rig.agent.runs().size() == 1);
            var run = rig.agent.run(0);
            run.delta("First part.");
            Await.until("the first text", () -> rig.rest.messagesTo(dmChannel).size() == 1);
            rig.rest.rateLimitNextEdits(1);
            run.complete("First part. Second part.");
            Await.until("the edit after the 429", () -> rig.rest.editsIn(dmChannel).size() == 2);
            assertTrue(rig.gateway.awaitIdle(Await.DEFAULT));
            assertEquals(List.of("First part. Second part."), rig.rest.screen(dmChannel));
            assertEquals(1, rig.rest.messagesTo(dmChannel).size(), "nothing sent twice");
            assertEquals(List.of("discord"), rig.rateLimits, "the 429 is counted");
        }
    }

    @Test
    void overflowPastTwoThousandMidStream_continuesInANewMessage_atAChunkBoundary() throws Exception {
        String answer = "This sentence is part of a long explanation. ".repeat(70).strip(); // ~3200 characters
        try (ManualTime time = ManualTime.running();
             DiscordRig rig = DiscordRig.options().time(time, time).start()) {
            rig.dm("7521", ALICE, "explain");
            Await.until("the agent run", () -> rig.agent.runs().size() == 1);
            var run = rig.agent.run(0);
            for (int at = 0; at < answer.length(); at += 800) {
                run.delta(answer.substring(at, Math.min(answer.length(), at + 800)));
                time.advance(Duration.ofSeconds(1));
            }
            run.complete(answer);
            Await.until("two messages with the whole answer", () -> rig.rest.screen(dmChannel).size() == 2
                    && String.join(" ", rig.rest.screen(dmChannel)).equals(answer));
            assertTrue(rig.gateway.awaitIdle(Await.DEFAULT));
            rig.rest.screen(dmChannel).forEach(m -> assertTrue(m.length() <= 2000, "a message of " + m.length()));
            assertEquals(2, rig.rest.messagesTo(dmChannel).size());
        }
    }
}

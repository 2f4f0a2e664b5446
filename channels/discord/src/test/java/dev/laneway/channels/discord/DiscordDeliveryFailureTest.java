package dev.laneway.channels.discord;

import static dev.laneway.channels.discord.DiscordJson.ALICE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.testing.Await;
import dev.laneway.core.testing.LogCapture;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A reply Discord does not take at once: a 5xx JDA gives up on is sent again by the outbox after a
 * backoff, once; a refusal leaves its message pending; nothing Discord says about the token
 * reaches the log.
 */
class DiscordDeliveryFailureTest {

    private final String dmChannel = FakeDiscordRest.dmChannel(ALICE);

    @Test
    void aServerErrorOnce_isDeliveredOnce_andTheMessageCountsAsAnswered() throws Exception {
        try (DiscordRig rig = DiscordRig.start()) {
            rig.rest.failNextPosts(1, 500, "{\"message\": \"500: Internal Server Error\", \"code\": 0}");
            rig.dm("7601", ALICE, "hello");
            Await.until("the agent run", () -> rig.agent.runs().size() == 1);
            rig.agent.run(0).complete("answer");

            Await.until("the answered record", () -> Boolean.TRUE.equals(rig.journal.answered(1)));
            List<FakeDiscordRest.Request> posts = rig.rest.messagesTo(dmChannel);
            assertEquals(2, posts.size(), "one 500, one success");
            assertEquals(List.of("answer", "answer"), posts.stream().map(FakeDiscordRest.Request::content).toList());
        }
    }

    @Test
    void aServerErrorThatOutlastsJdasOwnRetries_isSentAgainByTheOutbox_once() throws Exception {
        try (ManualTime time = ManualTime.running(); DiscordRig rig = DiscordRig.options().time(time, time).start()) {
            rig.rest.failNextPosts(5, 502, "<html><h1>502 Bad Gateway</h1></html>");
            rig.dm("7611", ALICE, "hello");
            Await.until("the agent run", () -> rig.agent.runs().size() == 1);
            rig.agent.run(0).complete("answer");

            Await.until("the outbox's retry timer", () -> time.pendingDelays().stream()
                    .anyMatch(d -> d.compareTo(Duration.ofMillis(800)) >= 0 && d.compareTo(Duration.ofSeconds(1)) <= 0));
            int failedSoFar = rig.rest.messagesTo(dmChannel).size();
            assertTrue(failedSoFar < 6, "JDA gave up before the fake did: " + failedSoFar);
            time.advance(Duration.ofSeconds(1));

            Await.until("the answered record", () -> Boolean.TRUE.equals(rig.journal.answered(1)));
            assertEquals(6, rig.rest.messagesTo(dmChannel).size(), "five 502s, then the one that went through");
        }
    }

    @Test
    void aRefusedReply_leavesItsMessagePending_andAnErrorThatEchoesTheTokenNeverReachesTheLog() throws Exception {
        try (LogCapture log = LogCapture.all(); DiscordRig rig = DiscordRig.start()) {
            rig.rest.failNextPosts(1, 400, "{\"message\": \"Invalid Form Body (token " + DiscordRig.TOKEN
                    + ")\", \"code\": 50035}");
            rig.dm("7621", ALICE, "hello");
            Await.until("the agent run", () -> rig.agent.runs().size() == 1);
            rig.agent.run(0).complete("answer");

            Await.until("the failure", () -> log.lines().stream().anyMatch(line -> line.mentions("stays pending")));
            assertTrue(rig.gateway.awaitIdle(Await.DEFAULT));
            assertEquals(1, rig.journal.pending().size(), "never delivered: it runs again after a restart");
            assertTrue(log.lines().stream().anyMatch(line -> line.mentions("Invalid Form Body")), log.lines().toString());
            assertTrue(log.lines().stream().noneMatch(line -> line.mentions(DiscordRig.TOKEN)), "the token was logged");
        }
    }
}

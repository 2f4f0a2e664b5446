package dev.laneway.channels.discord;

import static dev.laneway.channels.discord.DiscordJson.ALICE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.testing.Await;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Typing is sent when a message is accepted and re-sent every 8 s (Discord shows it for about
 * 10 s) until the run ends. The gateway's timers run on a manual clock, so no test waits 8 s.
 */
class DiscordTypingTest {

    private static final Duration REFRESH = Duration.ofSeconds(8);

    @Test
    void typing_isSentOnAccept_andRefreshedEveryEightSeconds_untilTheRunEnds() throws Exception {
        ManualTime time = new ManualTime();
        try (DiscordRig rig = DiscordRig.options().time(time, time).start()) {
            String dmChannel = FakeDiscordRest.dmChannel(ALICE);
            assertEquals(REFRESH, rig.channel.capabilities().typingRefresh());

            rig.dm("7501", ALICE, "think hard");
            Await.until("typing on accept", () -> rig.rest.typingIn(dmChannel).size() == 1);
            Await.until("the agent run", () -> rig.agent.runs().size() == 1);

            time.advance(REFRESH.minusMillis(1));
            time.advance(Duration.ofMillis(1));
            Await.until("typing refreshed after 8 s", () -> rig.rest.typingIn(dmChannel).size() == 2);
            time.advance(REFRESH);
            Await.until("typing refreshed after 16 s", () -> rig.rest.typingIn(dmChannel).size() == 3);

            rig.agent.run(0).complete("done");
            Await.until("the reply", () -> {
                time.advance(Duration.ZERO);
                return rig.rest.messagesTo(dmChannel).size() == 1;
            });
            assertTrue(rig.gateway.awaitIdle(Await.DEFAULT));
            assertTrue(time.pendingDueTimes().isEmpty(), "no typing timer left once the run has ended");
            time.advance(REFRESH.multipliedBy(3));
            assertEquals(3, rig.rest.typingIn(dmChannel).size());
            assertEquals(1, rig.rest.requests(r -> r.is("POST", "users/@me/channels")).size(),
                    "the DM channel is opened once, not before every typing refresh and reply");
        }
    }
}

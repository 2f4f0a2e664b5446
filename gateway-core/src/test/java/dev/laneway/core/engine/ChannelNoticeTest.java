package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.Route;
import dev.laneway.core.testing.GatewayHarness;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A notice a channel owes a user ({@code InboundSink.reply}) goes through the chat's outbox queue. */
class ChannelNoticeTest {

    @Test
    void aChannelNotice_waitsBehindTheRepliesAlreadyQueuedForThatChat() {
        GatewayHarness h = new GatewayHarness();
        h.dm("question");
        h.outbox.pause();
        h.agent.run(0).complete("the answer");
        h.gateway.reply(new Route("test", "default", "chat", null, "m9"), "I can only read text.");
        assertEquals(List.of(), h.channel.texts(), "both held by the outbox");
        h.outbox.resume();
        assertEquals(List.of("the answer", "I can only read text."), h.channel.texts());
    }
}

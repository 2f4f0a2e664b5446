package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.Attachment;
import dev.laneway.core.Disposition;
import dev.laneway.core.testing.GatewayHarness;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Inbound debounce for idle sessions (docs/behaviour.md §7). */
class InboundDebounceTest {

    private static GatewayHarness harness() {
        return new GatewayHarness(s -> s.inboundDebounce(Duration.ofMillis(500)).inboundMaxWait(Duration.ofMillis(1200)));
    }

    @Test
    void anIdleSessionsBurst_runsAsOneTurn_joinedByNewlines() {
        GatewayHarness h = harness();
        String a = h.dm("hello");
        h.advanceMillis(300);
        String b = h.dm("are you there?");
        h.advanceMillis(499);
        assertEquals(0, h.agent.runs().size());
        h.advanceMillis(1);
        assertEquals(List.of("hello\nare you there?"), h.agent.prompts());
        h.agent.run(0).complete();
        assertEquals(Disposition.RAN, h.dispositions.of(a));
        assertEquals(Disposition.RAN, h.dispositions.of(b));
    }

    @Test
    void maxWait_boundsTheInboundDebounce() {
        GatewayHarness h = harness();
        for (int i = 0; i < 5; i++) {
            h.dm("m" + i);
            h.advanceMillis(400);
        }
        assertEquals(List.of("m0\nm1\nm2"), h.agent.prompts(), "flushed at 1200 ms after the first");
    }

    @Test
    void mediaOrACommand_flushesTheBufferFirst_thenProceeds() {
        GatewayHarness h = harness();
        h.dm("text first");
        h.send(h.message("").attachments(List.of(new Attachment("photo", "cat.jpg"))));
        assertEquals(List.of("text first"), h.agent.prompts(), "buffer flushed, then the media message queued");
        h.agent.run(0).complete();
        h.advanceMillis(1000);
        assertEquals(2, h.agent.runs().size());
    }

    @Test
    void aBusySession_doesNotDebounceInbound_theQueueModeApplies() {
        GatewayHarness h = harness();
        h.dm("first");
        h.advanceMillis(500);
        h.dm("while busy");
        h.agent.run(0).complete();
        h.advanceMillis(1000);
        assertEquals(2, h.agent.runs().size());
    }

    @Test
    void perChannelInboundDebounce_overridesTheGlobalOne() {
        GatewayHarness h = new GatewayHarness(s -> s.inboundDebounce(Duration.ofMillis(500))
                .inboundByChannel(Map.of("test", Duration.ZERO)));
        h.dm("no debounce here");
        assertEquals(1, h.agent.runs().size());
    }
}

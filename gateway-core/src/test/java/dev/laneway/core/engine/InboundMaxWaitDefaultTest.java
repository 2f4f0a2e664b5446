package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.laneway.core.testing.GatewayHarness;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** docs/behaviour.md §7: the inbound debounce's maxWait is bound as the queue's (§5.1), 10 x debounce unless set. */
class InboundMaxWaitDefaultTest {

    /** Sends {@code count} messages, one every 400 ms (faster than the 500 ms debounce). */
    private static void typeFasterThanTheDebounce(GatewayHarness h, int count) {
        for (int i = 0; i < count; i++) {
            h.dm("m" + i);
            h.advanceMillis(400);
        }
    }

    @Test
    void withoutAConfiguredMaxWait_aSenderTypingFasterThanTheDebounceIsAnsweredAfterTenDebounces() {
        GatewayHarness h = new GatewayHarness(s -> s.inboundDebounce(Duration.ofMillis(500)));

        typeFasterThanTheDebounce(h, 20);

        String firstFiveSeconds = IntStream.rangeClosed(0, 12).mapToObj(i -> "m" + i).collect(Collectors.joining("\n"));
        assertEquals(firstFiveSeconds, h.agent.prompts().getFirst(), "flushed 5000 ms after the first message");
    }

    @Test
    void perChannelDebounce_getsTenTimesItsOwnDebounceAsTheBound() {
        GatewayHarness h = new GatewayHarness(s -> s.inboundDebounce(Duration.ofSeconds(60))
                .inboundByChannel(Map.of("test", Duration.ofMillis(500))));

        typeFasterThanTheDebounce(h, 20);

        assertEquals(1, h.agent.runs().size());
    }

    @Test
    void anExplicitZeroMaxWait_stillMeansNoBound() {
        GatewayHarness h = new GatewayHarness(s -> s.inboundDebounce(Duration.ofMillis(500))
                .inboundMaxWait(Duration.ZERO));

        typeFasterThanTheDebounce(h, 20);

        assertEquals(List.of(), h.agent.prompts());
    }

    @Test
    void settings_resolveTheBoundFromTheEffectiveDebounce() {
        GatewaySettings defaults = GatewaySettings.defaults();
        assertNull(defaults.inboundMaxWait());
        assertEquals(Duration.ofSeconds(5), defaults.inboundMaxWaitFor(Duration.ofMillis(500)));
        assertEquals(Duration.ofSeconds(2),
                defaults.toBuilder().inboundMaxWait(Duration.ofSeconds(2)).build().inboundMaxWaitFor(Duration.ofSeconds(1)));
    }
}

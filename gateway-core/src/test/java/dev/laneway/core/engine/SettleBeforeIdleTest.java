package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.testing.GatewayHarness;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A session can look idle (its run ended and it retired under its lock) a moment before the
 * effects of its last settle have run, i.e. before the message's "answered" record is queued behind
 * its reply. A shutdown that took that moment for "idle" closed the outbox first: the record never
 * ran, the message stayed pending and was answered again after the restart. The gateway counts as
 * idle only once every decided settle has run.
 */
class SettleBeforeIdleTest {

    private static final String FAILURE = "⚠️ Sorry, something went wrong while answering. (boom)";

    @Test
    void theGatewayIsNotIdle_whileALastSettleHasNotRunYet() throws Exception {
        GatewayHarness h = new GatewayHarness();
        List<Boolean> idleWhileNotifying = new ArrayList<>();
        // the failure notice is sent from the run's effects, after the session retired and before
        // its messages' settle effects run: exactly the window a shutdown could fall into
        h.channel.onSend(text -> {
            if (text.equals(FAILURE)) {
                try {
                    idleWhileNotifying.add(h.gateway.awaitIdle(Duration.ZERO));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        h.dm("hello");
        h.agent.run(0).fail("boom", false);

        assertEquals(List.of(FAILURE), h.channel.texts());
        assertEquals(0, h.gateway.busySessions(), "the session had already retired when the notice went out");
        assertEquals(List.of(false), idleWhileNotifying, "not idle while the message's settle is still to run");
        assertTrue(h.gateway.awaitIdle(Duration.ZERO), "idle once it has run");
    }
}

package dev.laneway.channels.slack;

import static dev.laneway.channels.slack.SlackEvents.dm;
import static dev.laneway.channels.slack.SlackEvents.eventsApi;
import static dev.laneway.channels.slack.SlackEvents.newEnvelopeId;
import static dev.laneway.channels.slack.SlackEvents.ts;
import static dev.laneway.core.testing.Await.until;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.InboundMessage;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** A slow sender lookup ({@code users.info}) holds up only its own conversation, which keeps its order. */
class SlackInboundConcurrencyTest {

    @Test
    void aSlowUserLookup_delaysOnlyItsOwnConversation_whichKeepsItsOrder() throws Exception {
        try (SlackRig rig = SlackRig.recording(true)) {
            rig.api.user("USLOW", "Sam", false);
            rig.api.user("U2", "Bob", false);
            CountDownLatch slow = rig.api.holdUser("USLOW");
            rig.deliver(eventsApi(newEnvelopeId(), dm("USLOW", "D1", "one", ts())));
            rig.deliver(eventsApi(newEnvelopeId(), dm("USLOW", "D1", "two", ts())));
            rig.deliver(eventsApi(newEnvelopeId(), dm("U2", "D2", "meanwhile", ts())));

            until("the other conversation's message", () -> rig.received.size() == 1);
            assertEquals("meanwhile", rig.received.get(0).text(), "not held up behind users.info for USLOW");

            slow.countDown();
            until("the slow conversation's messages", () -> rig.received.size() == 3);
            List<InboundMessage> d1 = rig.received.stream().filter(m -> m.chatId().equals("D1")).toList();
            assertEquals(List.of("one", "two"), d1.stream().map(InboundMessage::text).toList());
            assertEquals("Sam", d1.get(0).senderName());
        }
    }
}

package dev.laneway.channels.slack;

import static dev.laneway.channels.slack.SlackEvents.dm;
import static dev.laneway.channels.slack.SlackEvents.eventsApi;
import static dev.laneway.channels.slack.SlackEvents.newEnvelopeId;
import static dev.laneway.channels.slack.SlackEvents.ts;
import static dev.laneway.core.testing.Await.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.InboundMessage;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Socket Mode connection rotation and loss: reconnect through apps.connections.open, lose nothing. */
class SlackReconnectTest {

    @Test
    void disconnectEnvelope_reconnectsThroughAppsConnectionsOpen_andNoMessageIsLost() throws Exception {
        try (SlackRig rig = SlackRig.recording(true)) {
            String before = newEnvelopeId();
            String after = newEnvelopeId();
            rig.deliver(eventsApi(before, dm("U1", "D1", "before the rotation", ts())));
            // its ack goes out once the gateway has it; an ack sent while the socket is being replaced
            // is lost, and real Slack redelivers that envelope (a redelivery is acknowledged as already
            // handled, EnvelopeHandler), which this fake does not do: so the rotation comes after it
            until("the first ack", () -> rig.socket.acks().contains(before));
            rig.socket.sendDisconnect();
            rig.deliver(eventsApi(after, dm("U1", "D1", "after the rotation", ts())));

            until("both messages", () -> rig.received.size() == 2);
            assertEquals(List.of("before the rotation", "after the rotation"),
                    rig.received.stream().map(InboundMessage::text).toList());
            assertEquals(2, rig.api.calls("apps.connections.open").size());
            assertEquals(2, rig.socket.connectionsOpened());
            until("both acks", () -> rig.socket.acks().containsAll(List.of(before, after)));
            rig.awaitConnected();
        }
    }

    @Test
    void droppedSocket_reconnectsThroughAppsConnectionsOpen_andNoMessageIsLost() throws Exception {
        try (SlackRig rig = SlackRig.recording(true)) {
            rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "first", ts())));
            until("the first message", () -> rig.received.size() == 1);

            rig.socket.dropConnection();
            String held = newEnvelopeId();
            rig.deliver(eventsApi(held, dm("U1", "D1", "sent while the socket was down", ts())));

            until("the held message", () -> rig.received.size() == 2);
            assertEquals("sent while the socket was down", rig.received.get(1).text());
            assertTrue(rig.api.calls("apps.connections.open").size() >= 2);
            until("the ack on the new connection", () -> rig.socket.acks().contains(held));
            rig.awaitConnected();
        }
    }
}

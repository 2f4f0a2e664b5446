package dev.laneway.channels.slack;

import static dev.laneway.channels.slack.SlackEvents.dm;
import static dev.laneway.channels.slack.SlackEvents.eventsApi;
import static dev.laneway.channels.slack.SlackEvents.newEnvelopeId;
import static dev.laneway.channels.slack.SlackEvents.ts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.channel.ExpiringKeys;
import dev.laneway.core.channel.SeenIds;
import dev.laneway.core.testing.Await;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Two instances of a fleet, each with its own Socket Mode connection (docs/behaviour.md §17,
 * "Ingress"), sharing the ids already taken, as they share them in Redis ({@code RedisSeenIds},
 * whose one-of-two semantics FleetSeenIdsTest checks on a real Redis): an event Slack delivers to
 * both is handed over by one, and both connections acknowledge it.
 */
class SlackFleetDedupeTest {

    @Test
    void theSameEventIdOnTwoInstances_isHandedOverOnce_andAcknowledgedOnBoth() throws Exception {
        ExpiringKeys fleet = new ExpiringKeys(InstantSource.system(), Duration.ofMinutes(15), 1000);
        List<String> kinds = new CopyOnWriteArrayList<>();
        List<String> taken = new CopyOnWriteArrayList<>();
        SeenIds.Source shared = (kind, ttl, max) -> {
            kinds.add(kind);
            return new SeenIds() {
                @Override
                public boolean add(String id) {
                    return fleet.add(id);
                }

                @Override
                public boolean remove(String id) {
                    return fleet.remove(id);
                }

                @Override
                public void taken(String id) {
                    taken.add(id);
                }
            };
        };
        try (SlackRig first = SlackRig.recording(options -> options.withSeen(shared));
             SlackRig second = SlackRig.recording(options -> options.withSeen(shared))) {
            first.api.user("U1", "Ann", false);
            second.api.user("U1", "Ann", false);
            List<String> envelopes = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                String ts = ts();
                String eventId = "EvFleet" + i;
                String onFirst = newEnvelopeId();
                String onSecond = newEnvelopeId();
                envelopes.add(onFirst);
                envelopes.add(onSecond);
                first.socket.deliver(eventsApi(onFirst, eventId, dm("U1", "D1", "hello " + i, ts), 0));
                second.socket.deliver(eventsApi(onSecond, eventId, dm("U1", "D1", "hello " + i, ts), i % 2));
                Await.until("both envelopes of " + eventId + " acknowledged",
                        () -> first.socket.acks().contains(onFirst) && second.socket.acks().contains(onSecond));
            }

            assertEquals(5, first.received.size() + second.received.size(),
                    "each event reached the gateway through one instance: " + first.received + " / " + second.received);
            assertEquals(List.of("slack-events:UBOT", "slack-events:UBOT"), kinds, "one id space per Slack app's bot");
            Await.until("each handed-over event kept as seen", () -> taken.size() == 5);
            assertTrue(taken.stream().allMatch(id -> id.startsWith("event:EvFleet")), taken.toString());
        }
    }

    /**
     * docs/decisions.md D184: an event another instance claimed and has not handed over (it may have
     * died before journaling it, leaving the envelope unacknowledged, which is why Slack retries it)
     * is handed over here rather than acknowledged as a repeat, which would lose it.
     */
    @Test
    void anEventClaimedButNotHandedOverElsewhere_isHandedOverHere_notSkippedAsARepeat() throws Exception {
        SeenIds.Source claimedElsewhere = (kind, ttl, max) -> new SeenIds() {
            @Override
            public boolean add(String id) {
                return false;   // claimed by the instance that died
            }

            @Override
            public Claim claim(String id) {
                return Claim.PENDING;
            }

            @Override
            public boolean remove(String id) {
                return false;
            }
        };
        try (SlackRig rig = SlackRig.recording(options -> options.withSeen(claimedElsewhere))) {
            rig.api.user("U1", "Ann", false);
            String envelope = newEnvelopeId();
            rig.socket.deliver(eventsApi(envelope, "EvOrphan", dm("U1", "D1", "sent before the kill", ts()), 1));
            Await.until("the retry acknowledged", () -> rig.socket.acks().contains(envelope));
            assertEquals(1, rig.received.size(), "the retried event reached the gateway: " + rig.received);
        }
    }
}

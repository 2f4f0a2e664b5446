package dev.laneway.channels.slack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.Route;
import dev.laneway.core.testing.ManualTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProgressReactionsTest {

    private final List<String> calls = new ArrayList<>();
    private String error;
    private final ProgressReactions reactions = new ProgressReactions(new ManualTime(), new ProgressReactions.Api() {
        @Override
        public String add(String channel, String ts) {
            calls.add("add " + channel + " " + ts);
            return error;
        }

        @Override
        public String remove(String channel, String ts) {
            calls.add("remove " + channel + " " + ts);
            return error;
        }
    });

    private static Route route(String thread, String ts) {
        return new Route("slack", "default", "C1", thread, ts);
    }

    @Test
    void everyAcceptedMessage_getsEyes_andLosesThemWhenSettled() {
        reactions.accepted(route("1.000001", "1.000001"));
        reactions.accepted(route("1.000001", "1.000002"));
        reactions.settled(route("1.000001", "1.000002"));
        reactions.settled(route("1.000001", "1.000001"));
        assertEquals(List.of("add C1 1.000001", "add C1 1.000002", "remove C1 1.000002", "remove C1 1.000001"), calls);
    }

    @Test
    void idsThatAreNotMessageTimestamps_areUntouched() {
        reactions.accepted(route(null, "slash:trigger-1"));
        reactions.settled(route(null, "slash:trigger-1"));
        reactions.accepted(route(null, null));
        assertEquals(List.of(), calls);
    }

    @Test
    void aFailedCall_isToleratedAndTheNextOneStillGoes() {
        error = "missing_scope";
        reactions.accepted(route(null, "1.000001"));
        reactions.accepted(route(null, "1.000002"));
        assertEquals(List.of("add C1 1.000001", "add C1 1.000002"), calls);
    }

    @Test
    void aReactionThatCouldNotBeAdded_isNotRemoved() {
        error = "HTTP 429";
        reactions.accepted(route(null, "1.000001"));
        error = null;
        reactions.accepted(route(null, "1.000002"));
        reactions.settled(route(null, "1.000001"));
        reactions.settled(route(null, "1.000002"));
        assertEquals(List.of("add C1 1.000001", "add C1 1.000002", "remove C1 1.000002"), calls);
    }

    @Test
    void aMessageAcceptedBeforeARestart_stillLosesItsEyes() {
        reactions.settled(route(null, "1.000009"));
        assertEquals(List.of("remove C1 1.000009"), calls);
    }
}

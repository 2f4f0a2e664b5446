package dev.laneway.channels.slack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.Route;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProgressReactionsTest {

    private final List<String> calls = new ArrayList<>();
    private final ManualTime time = new ManualTime();
    private final ProgressReactions reactions = new ProgressReactions(new ProgressReactions.Api() {
        @Override
        public String add(String channel, String ts) {
            calls.add("add " + channel + " " + ts);
            return null;
        }

        @Override
        public String remove(String channel, String ts) {
            calls.add("remove " + channel + " " + ts);
            return null;
        }
    }, Runnable::run, time, Duration.ofHours(1));

    private static Route route(String thread, String ts) {
        return new Route("slack", "default", "C1", thread, ts);
    }

    @Test
    void eachMessageGetsEyesOnce_howeverOftenTypingIsRefreshed() {
        reactions.claim(route("1.000001", "1.000001"));
        reactions.claim(route("1.000001", "1.000001"));
        reactions.claim(route("1.000001", "1.000001"));
        assertEquals(List.of("add C1 1.000001"), calls);
    }

    @Test
    void runEnded_removesEyesUpToTheAnsweredMessage_andLaterMessagesKeepTheirs() {
        reactions.claim(route("1.000001", "1.000001"));
        reactions.claim(route("1.000001", "1.000002"));
        reactions.claim(route("1.000001", "1.000010"));
        calls.clear();

        reactions.finish(route("1.000001", "1.000002"));
        assertEquals(List.of("remove C1 1.000001", "remove C1 1.000002"), calls);
        assertEquals(1, reactions.pending());

        reactions.finish(route("1.000001", "1.000010"));
        assertEquals(0, reactions.pending());
    }

    @Test
    void aTypingCallThatArrivesAfterTheRunEnded_addsNothing() {
        reactions.finish(route("1.000001", "1.000005"));
        reactions.claim(route("1.000001", "1.000005"));
        reactions.claim(route("1.000001", "1.000003"));
        assertEquals(List.of(), calls);
    }

    @Test
    void otherThreads_andIdsThatAreNotMessageTimestamps_areUntouched() {
        reactions.claim(route("2.000001", "2.000001"));
        reactions.finish(route("1.000001", "9.000001"));
        reactions.claim(route(null, "slash:trigger-1"));
        assertEquals(List.of("add C1 2.000001"), calls);
    }

    @Test
    void forgottenConversationsExpire() {
        reactions.claim(route("1.000001", "1.000001"));
        time.advance(Duration.ofHours(2));
        reactions.claim(route("2.000001", "2.000001"));
        assertEquals(1, reactions.pending());
    }
}

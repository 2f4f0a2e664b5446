package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.Route;
import dev.laneway.core.SessionKey;
import dev.laneway.core.testing.FakeChannel;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.core.testing.TrampolineExecutor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A chat's outbox queue: an action that rides behind a reply ({@code Outbox.answer(..., then)})
 * runs exactly where an action queued right behind that reply would, and held chats, spread over
 * the outbox's stripes, resume in the order they were first held (docs/architecture.md §5).
 */
class OutboxQueueTest {

    private final ManualTime time = new ManualTime();
    private final TrampolineExecutor executor = new TrampolineExecutor();
    private final FakeChannel channel = new FakeChannel("test");
    private final Outbox outbox = new Outbox(executor, time, time, name -> channel, GatewayObserver.NONE);
    private final List<String> events = Collections.synchronizedList(new ArrayList<>());
    private final SessionKey session = SessionKey.of("test:dm:ann");

    private static Route chat(String id) {
        return new Route("test", "default", id, null, null);
    }

    FakeChannel recording() {
        return channel.onSend(text -> events.add("sent " + text));
    }

    @Test
    void anActionRidingBehindAReply_runsRightAfterIt_beforeWhatWasQueuedLater() {
        recording();
        executor.pause();
        outbox.answer(chat("c"), session, "first", () -> true, new Delivery(), () -> events.add("after first"));
        outbox.send(chat("c"), "second");
        outbox.afterDelivered(chat("c"), () -> events.add("after second"));
        executor.resume();
        assertEquals(List.of("sent first", "after first", "sent second", "after second"), events);
    }

    @Test
    void aStoppedOrUnwantedReply_isNotSent_butItsRidingActionStillRuns() {
        recording();
        executor.pause();
        outbox.answer(chat("c"), session, "stopped", () -> true, new Delivery(), () -> events.add("after stopped"));
        outbox.answer(chat("c"), session, "unwanted", () -> false, new Delivery(), () -> events.add("after unwanted"));
        outbox.stopAnswers(session);
        executor.resume();
        assertEquals(List.of("after stopped", "after unwanted"), events);
    }

    @Test
    void aBlankReply_queuesItsActionAlone() {
        outbox.answer(chat("c"), session, " ", () -> true, new Delivery(), () -> events.add("after blank"));
        assertEquals(List.of("after blank"), events);
        assertEquals(List.of(), channel.texts());
    }

    @Test
    void aReplyCutOffByTheShutdown_keepsItsRidingActionParked_asAQueuedActionWouldBe() {
        recording();
        outbox.hold("test");
        outbox.answer(chat("c"), session, "late", () -> true, new Delivery(), () -> events.add("answered"));
        assertEquals(2, outbox.heldCount(), "the reply and the action behind it");
        outbox.holdForShutdown();
        outbox.release("test");
        assertEquals(List.of(), events, "neither goes out once the outbox is shut");
        assertEquals(2, outbox.heldCount());
    }

    @Test
    void heldChats_resumeInTheOrderTheyWereFirstHeld_acrossStripes() {
        recording();
        outbox.hold("test");
        List<String> chats = IntStream.range(0, 3 * Outbox.STRIPES).mapToObj(i -> "chat" + (i * 7919 % 1000)).toList();
        chats.forEach(id -> outbox.send(chat(id), "to " + id));
        outbox.release("test");
        assertEquals(chats.stream().map(id -> "sent to " + id).toList(), events);
    }
}

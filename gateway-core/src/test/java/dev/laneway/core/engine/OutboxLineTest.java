package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Route;
import dev.laneway.core.SessionKey;
import dev.laneway.core.channel.SendFailure;
import dev.laneway.core.testing.Await;
import dev.laneway.core.testing.FakeChannel;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.core.testing.TrampolineExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A line to a chat (docs/decisions.md D244): what goes through it keeps the chat's order with
 * everything sent without it, waits out the chat's pacing and 429 pauses and its channel's hold as
 * anything else for the chat does, and the chat's entry stays while the line is open and leaves
 * once it is closed and nothing is queued; a closed line still delivers, as no line.
 */
class OutboxLineTest {

    private final ManualTime time = new ManualTime();
    private final TrampolineExecutor executor = new TrampolineExecutor();
    private final FakeChannel channel = new FakeChannel("test");
    private final Outbox outbox = new Outbox(executor, time, time, name -> channel, GatewayObserver.NONE);
    private final List<String> events = Collections.synchronizedList(new ArrayList<>());
    private final SessionKey session = SessionKey.of("test:dm:ann");

    private static Route chat(String id) {
        return new Route("test", "default", id, null, null);
    }

    private void recording() {
        channel.onSend(text -> events.add("sent " + text));
    }

    private void answer(Outbox.Line line, String chat, String text, Runnable then) {
        outbox.answer(chat(chat).replyingTo("m-" + text), line, session, text, () -> true, new Delivery(), then);
    }

    @Test
    void repliesThroughALine_keepTheChatsOrder_withWhatGoesWithoutIt_andTheEntryStaysUntilClosed() {
        recording();
        Outbox.Line line = outbox.line(chat("c"));
        assertEquals(1, outbox.entries(), "an open line holds its chat's entry");
        assertTrue(outbox.isIdle(), "an empty entry is idle");
        executor.pause();
        outbox.send(chat("c"), "notice");
        answer(line, "c", "first", () -> events.add("after first"));
        outbox.send(chat("c"), "second");
        answer(line, "c", "third", null);
        outbox.afterDelivered(chat("c"), () -> events.add("after third"));
        executor.resume();
        assertEquals(List.of("sent notice", "sent first", "after first", "sent second", "sent third", "after third"),
                events);
        assertEquals(1, outbox.entries(), "drained, the entry stays while the line is open");
        assertTrue(outbox.isIdle());
        answer(line, "c", "again", null);
        assertEquals("sent again", events.get(events.size() - 1), "a reply to the kept entry starts a drain");

        line.close();
        assertTrue(line.closed());
        assertEquals(0, outbox.entries(), "closed and empty: the entry leaves");
        line.close(); // once only
        assertEquals(0, outbox.entries());
    }

    @Test
    void aClosedLine_stillDelivers_inOrder_andLeavesNoEntry() {
        recording();
        Outbox.Line line = outbox.line(chat("c"));
        line.close();
        executor.pause();
        outbox.send(chat("c"), "before");
        answer(line, "c", "late", () -> events.add("after late"));
        assertEquals(1, outbox.entries(), "looked up as without a line");
        executor.resume();
        assertEquals(List.of("sent before", "sent late", "after late"), events);
        assertEquals(0, outbox.entries());
    }

    @Test
    void aLineClosedWhileItsChatDrains_letsTheEntryGoOnceDrained() {
        recording();
        Outbox.Line line = outbox.line(chat("c"));
        executor.pause();
        answer(line, "c", "first", null);
        line.close();
        assertEquals(1, outbox.entries(), "still queued");
        executor.resume();
        assertEquals(List.of("sent first"), events);
        assertEquals(0, outbox.entries());
    }

    @Test
    void twoLinesToOneChat_shareItsEntry_whichLeavesWithTheLastOne() {
        recording();
        Outbox.Line ann = outbox.line(chat("group"));
        Outbox.Line bob = outbox.line(chat("group"));
        executor.pause();
        answer(ann, "group", "to ann", null);
        answer(bob, "group", "to bob", null);
        answer(ann, "group", "to ann again", null);
        executor.resume();
        assertEquals(List.of("sent to ann", "sent to bob", "sent to ann again"), events);
        ann.close();
        assertEquals(1, outbox.entries(), "bob's line still holds it");
        answer(bob, "group", "bob's last", null);
        bob.close();
        assertEquals(0, outbox.entries());
        assertEquals("sent bob's last", events.get(events.size() - 1));
    }

    @Test
    void aReplyToAnotherChat_doesNotGoThroughTheLine() {
        Outbox.Line line = outbox.line(chat("c"));
        answer(line, "d", "elsewhere", null);
        assertEquals(List.of("elsewhere"), channel.textsTo("d"));
        assertEquals(List.of(), channel.textsTo("c"));
        assertTrue(line.isFor(chat("c").replyingTo("m9")), "the chat, whatever message it replies to");
        assertFalse(line.isFor(chat("d")));
        assertFalse(line.isFor(new Route("test", "other", "c", null, null)), "another account's chat");
        assertFalse(line.isFor(new Route("other", "default", "c", null, null)), "another channel's chat");
        assertEquals(1, outbox.entries(), "d's entry left once drained; c's stays while its line is open");
    }

    @Test
    void aLinesChat_waitsOutItsPacing_andA429_thenSendsTheSameChunk() {
        recording();
        Outbox.Line line = outbox.line(chat("c"));
        channel.pacing(route -> Duration.ofSeconds(2));
        answer(line, "c", "paced", null);
        assertEquals(List.of(), events, "waits for the channel's pace");
        time.advance(Duration.ofSeconds(2));
        assertEquals(List.of("sent paced"), events);

        channel.pacing(route -> Duration.ZERO);
        channel.failNextSends(SendFailure.rateLimited(Duration.ofSeconds(30), "HTTP 429"));
        answer(line, "c", "limited", null);
        outbox.send(chat("c"), "behind it");
        answer(line, "c", "after that", null);
        assertEquals(List.of("paced", "limited"), channel.attempts());
        assertFalse(outbox.isIdle(), "a chat waiting out a 429 with something queued is not idle");
        time.advance(Duration.ofSeconds(29));
        assertEquals(List.of("sent paced"), events, "nothing before the retry-after");
        time.advance(Duration.ofSeconds(1));
        assertEquals(List.of("sent paced", "sent limited", "sent behind it", "sent after that"), events);
        assertEquals(1, outbox.entries());
        assertTrue(outbox.isIdle());
    }

    @Test
    void anEmptyKeptEntry_isIdleWhileItsChatWaitsOutA429_asAChatWithNoEntryWould() {
        Outbox.Line line = outbox.line(chat("c"));
        channel.failNextTyping(SendFailure.rateLimited(Duration.ofSeconds(30), "HTTP 429"));
        outbox.typing(chat("c"));
        assertTrue(outbox.isIdle(), "nothing queued for it");
        time.advance(Duration.ofSeconds(30));
        assertTrue(outbox.isIdle());
        assertEquals(1, outbox.entries());
        line.close();
        assertEquals(0, outbox.entries());
    }

    @Test
    void aLineOpenedBeforeItsChannelIsHeld_resumesInTheOrderItsFirstItemCame() {
        recording();
        Outbox.Line line = outbox.line(chat("b"));
        outbox.hold("test");
        outbox.send(chat("a"), "to a");
        answer(line, "b", "to b", () -> events.add("after b"));
        outbox.send(chat("c"), "to c");
        assertEquals(4, outbox.heldCount(), "three replies and the action behind one");
        assertEquals(List.of(), events);
        outbox.release("test");
        assertEquals(List.of("sent to a", "sent to b", "after b", "sent to c"), events);
        assertEquals(0, outbox.heldCount());
        assertEquals(1, outbox.entries(), "b's stays while its line is open");
    }

    @Test
    void aLinesEmptyEntry_isNotResumedByARelease() {
        Outbox.Line line = outbox.line(chat("b"));
        outbox.hold("test");
        outbox.release("test");
        assertEquals(0, executor.waiting(), "no drain for an empty entry");
        assertTrue(outbox.isIdle());
        answer(line, "b", "later", null);
        assertEquals(List.of("later"), channel.texts());
    }

    @Test
    void stopAnswers_dropsWhatIsQueuedThroughALine() {
        recording();
        Outbox.Line line = outbox.line(chat("c"));
        executor.pause();
        answer(line, "c", "stopped", () -> events.add("after stopped"));
        outbox.send(chat("c"), "a notice");
        outbox.stopAnswers(session);
        executor.resume();
        assertEquals(List.of("after stopped", "sent a notice"), events);
    }

    /**
     * Real threads: senders that each hold a line to one chat, close it and open a new one now and
     * then (sessions of a group chat that retire and come back), and send without it between;
     * every sender's texts arrive in its order, no two sends to the chat overlap, and once every
     * line is closed the entry leaves.
     */
    @Test
    void linesOpenedAndClosedFromManyThreads_keepEachSendersOrder_andLeaveNoEntry() throws Exception {
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
        FakeChannel real = new FakeChannel("test");
        Outbox shared = new Outbox(threads, time, time, name -> real, GatewayObserver.NONE);
        AtomicInteger sending = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        real.onSend(text -> {
            if (sending.incrementAndGet() > 1) {
                overlaps.incrementAndGet();
            }
            Thread.onSpinWait();
            sending.decrementAndGet();
        });
        int senders = 4;
        int each = 400;
        List<Thread> started = new ArrayList<>();
        for (int s = 0; s < senders; s++) {
            int sender = s;
            started.add(Thread.ofPlatform().start(() -> {
                Outbox.Line line = shared.line(chat("group"));
                for (int i = 0; i < each; i++) {
                    String text = sender + ":" + i;
                    if (i % 3 == 0) {
                        shared.send(chat("group"), text);
                    } else {
                        shared.answer(chat("group"), line, session, text, () -> true, new Delivery(), null);
                    }
                    if (i % 50 == 49) {
                        line.close();
                        line = shared.line(chat("group"));
                    }
                }
                line.close();
            }));
        }
        for (Thread thread : started) {
            thread.join();
        }
        Await.until("every text sent", () -> real.texts().size() == senders * each);
        Await.until("the entry gone", () -> shared.entries() == 0);
        assertEquals(0, overlaps.get(), "one send at a time to a chat");
        List<String> texts = real.texts();
        for (int s = 0; s < senders; s++) {
            String prefix = s + ":";
            List<String> mine = texts.stream().filter(text -> text.startsWith(prefix)).toList();
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < each; i++) {
                expected.add(prefix + i);
            }
            assertEquals(expected, mine, "sender " + s + "'s order");
        }
        assertTrue(shared.isIdle());
        threads.shutdownNow();
    }
}

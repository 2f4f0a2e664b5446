package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.Disposition;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.core.store.MessageJournal;
import dev.laneway.core.testing.ForwardingJournal;
import dev.laneway.core.testing.GatewayHarness;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A message's session is looked up once, for its admission and its hand-over (docs/decisions.md
 * D245): when the resting session it found retires before the hand-over (here, while the message
 * is journaled), the message goes to the chat's new session and runs, as it would have had the
 * lookup come after the retirement.
 */
class KnownSessionTest {

    private final AtomicReference<Runnable> duringAppend = new AtomicReference<>();
    private final MessageJournal journal = new ForwardingJournal(MessageJournal.NONE) {
        @Override
        public CompletableFuture<Void> append(JournalEntry entry) {
            Runnable action = duringAppend.getAndSet(null);
            if (action != null) {
                action.run();
            }
            return super.append(entry);
        }
    };
    private final GatewayHarness h = new GatewayHarness(settings -> settings, CommandHandler.NONE, journal,
            new ManualTime());

    private String message(String sender, String text) {
        return h.send(h.message(text).senderId(sender).chatId(sender));
    }

    @Test
    void aSessionThatRetiresBetweenTheLookupAndTheHandOver_leavesTheMessageToTheChatsNewSession() {
        String first = message("ann", "one");
        h.agent.lastRun().complete("hi");
        assertEquals(Disposition.RAN, h.dispositions.of(first));
        h.advance(Duration.ofSeconds(61)); // ann's session has rested a minute: the next session made retires it

        duringAppend.set(() -> {
            message("bob", "hello"); // makes bob's session, whose sweep retires ann's
            h.agent.lastRun().complete("hi bob");
            assertEquals(1, h.gateway.registeredSessions(), "ann's session retired; bob's rests");
        });
        String second = message("ann", "two");
        assertEquals("two", h.agent.lastRun().prompt(), "ann's message ran, in a new session");
        h.agent.lastRun().complete("hi again");
        assertEquals(Disposition.RAN, h.dispositions.of(second));
        assertEquals(2, h.gateway.registeredSessions());
    }
}

package dev.laneway.channels.telegram;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.Disposition;
import dev.laneway.core.testing.Await;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code /queue status} and {@code /queue cancel} in a Telegram chat (docs/behaviour.md §6.9). */
class QueueCancelTest {

    @Test
    void statusListsTheWaitingMessages_cancelDropsThem_andTheyAreNeverAnswered() throws Exception {
        try (Rig rig = Rig.start()) {
            rig.api.dm(Tg.ANN, "first");
            var run = rig.run(0);
            int second = rig.api.dm(Tg.ANN, "second");
            int third = rig.api.dm(Tg.ANN, "third");
            rig.api.awaitCaughtUp();
            rig.api.dm(Tg.ANN, "/queue status");
            Await.until("the status", () -> rig.api.textsTo(Tg.ANN.id()).size() == 1);
            assertEquals("ℹ️ You have 2 message(s) waiting: #1 \"second\", #2 \"third\".",
                    rig.api.sentTo(Tg.ANN.id()).get(0).visible());
            rig.api.dm(Tg.ANN, "/queue cancel");
            Await.until("the cancel", () -> rig.api.textsTo(Tg.ANN.id()).size() == 2);
            assertEquals("⚙️ Cancelled 2 queued message(s) of yours; they will not be answered.",
                    rig.api.sentTo(Tg.ANN.id()).get(1).visible());
            assertEquals(Disposition.STOPPED, rig.dispositions.of(Integer.toString(second)));
            assertEquals(Disposition.STOPPED, rig.dispositions.of(Integer.toString(third)));
            run.complete("the first answer");
            Await.until("the first answer", () -> rig.api.screen(Tg.ANN.id()).size() == 3);
            rig.awaitQuiet();
            assertEquals(1, rig.scripted().runs().size(), "the cancelled messages never ran");
            assertEquals(List.of("the first answer"), rig.api.screen(Tg.ANN.id()).subList(2, 3));
        }
    }
}

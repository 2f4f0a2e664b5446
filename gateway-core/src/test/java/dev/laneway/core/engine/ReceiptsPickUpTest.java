package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.SessionKey;
import dev.laneway.core.channel.ChannelCapabilities;
import dev.laneway.core.channel.ReceiptMode;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.core.testing.FakeChannel;
import dev.laneway.core.testing.GatewayHarness;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Receipts of messages a fleet's instance picks up from the shared journal (docs/behaviour.md §16.5,
 * §17; D232): the instance that received them showed nothing, so on a channel without a typing
 * indicator (Slack) the holder shows 👀 itself rather than taking it as shown (only a restart does).
 */
class ReceiptsPickUpTest {

    private static final SessionKey SESSION = SessionKey.of("test:dm:user");
    private static final QueueSettings FOLLOWUP = new QueueSettings(QueueMode.FOLLOWUP, Duration.ZERO, 20, DropPolicy.SUMMARIZE);

    @Test
    void messagesPickedUpFromTheJournal_showTheirReceiptsAfresh() {
        InMemoryJournal journal = new InMemoryJournal();
        ManualTime time = new ManualTime();
        FakeChannel channel = new FakeChannel("test", new ChannelCapabilities(4096, false, null, true, false))
                .receipts(ReceiptMode.REACTIONS);
        GatewayHarness h = new GatewayHarness(s -> s.queueDefaults(FOLLOWUP), journal, time, channel,
                b -> b.fleet(new OneFleet()));
        journal.append(entry(1, "m1", time)); // journaled by the instance that received them, which showed nothing
        journal.append(entry(2, "m2", time));

        h.gateway.fleetSessions().pickUp(SESSION, true);

        assertEquals(List.of("react m1 ✍", "react m2 👀"), h.channel.progress(),
                "the holder shows each message's receipt: it runs, or it waits");
    }

    private static JournalEntry entry(long seq, String id, ManualTime time) {
        InboundMessage message = InboundMessage.builder("test").chatId("user").senderId("user").text(id)
                .platformMessageId(id).build();
        return new JournalEntry(seq, SESSION.value(), message, message.text(), FOLLOWUP, false, time.instant());
    }
}

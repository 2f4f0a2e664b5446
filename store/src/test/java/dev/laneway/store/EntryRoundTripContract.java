package dev.laneway.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Attachment;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.store.JournalEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;

/** Any journal entry, with any valid Unicode in its strings, comes back from the store unchanged. */
public abstract class EntryRoundTripContract {

    private StoreUnderTest subject;
    private DurableStore store;
    private long seq;

    /** The store under test, on fresh data (jqwik has no JUnit extensions: make the temp dir here). */
    protected abstract StoreUnderTest subject() throws Exception;

    @BeforeProperty
    void open() throws Exception {
        subject = subject();
        store = subject.open(Fixtures.options(Fixtures.clock()));
    }

    @AfterProperty
    void close() throws Exception {
        store.close();
        subject.close();
    }

    @Property(tries = 300)
    void anyEntryRoundTrips(@ForAll("entries") JournalEntry generated) {
        JournalEntry entry = new JournalEntry(++seq, generated.session(), generated.message(), generated.text(),
                generated.settings(), generated.trusted());
        store.append(entry).join();
        try {
            assertEquals(List.of(entry), store.pending());
            if (entry.messageKey() != null) {
                assertTrue(store.seen(entry.messageKey()));
            }
        } finally {
            store.settled(entry.seq(), false); // each try sees only its own entry, shrinking included
        }
    }

    @Provide
    Arbitrary<JournalEntry> entries() {
        Arbitrary<InboundMessage> messages = Combinators.combine(text(1, 20), text(1, 12), text(1, 30),
                        text(0, 20).injectNull(0.3), text(1, 20), text(0, 20).injectNull(0.2), text(0, 200),
                        attachments())
                .as(Partial::new)
                .flatMap(partial -> Combinators.combine(text(1, 25).injectNull(0.3), instants(),
                                Arbitraries.of(true, false), Arbitraries.of(true, false), Arbitraries.of(true, false))
                        .as(partial::message))
                .flatMap(message -> Combinators.combine(text(1, 20).injectNull(0.5),
                                Arbitraries.of(InboundMessage.Origin.class))
                        .as((space, origin) -> new InboundMessage(message.channel(), message.account(),
                                message.chatId(), message.threadId(), message.senderId(), message.senderName(),
                                message.text(), message.attachments(), message.platformMessageId(),
                                message.receivedAt(), message.direct(), message.mentionsBot(),
                                message.senderIsAdmin(), space, origin)));
        Arbitrary<QueueSettings> settings = Combinators.combine(Arbitraries.of(QueueMode.class),
                        Arbitraries.longs().between(0, Duration.ofDays(365).toMillis()),
                        Arbitraries.integers().between(1, 10_000), Arbitraries.of(DropPolicy.class))
                .as((mode, debounce, cap, drop) -> new QueueSettings(mode, Duration.ofMillis(debounce), cap, drop));
        return Combinators.combine(text(1, 40), messages, text(0, 200), settings, Arbitraries.of(true, false))
                .as((session, message, text, queue, trusted) -> new JournalEntry(0, session, message, text, queue, trusted));
    }

    private record Partial(String channel, String account, String chatId, String threadId, String senderId,
                           String senderName, String text, List<Attachment> attachments) {
        InboundMessage message(String platformId, Instant receivedAt, boolean direct, boolean mentions, boolean admin) {
            return new InboundMessage(channel, account, chatId, threadId, senderId, senderName, text, attachments,
                    platformId, receivedAt, direct, mentions, admin);
        }
    }

    /** Strings of valid Unicode code points (any plane, NUL included; no lone surrogates). */
    private static Arbitrary<String> text(int min, int max) {
        Arbitrary<Integer> codePoint = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, Arbitraries.integers().between(0x20, 0x7E)),
                net.jqwik.api.Tuple.of(3, Arbitraries.integers().between(0, 0xD7FF)),
                net.jqwik.api.Tuple.of(2, Arbitraries.integers().between(0xE000, 0x10FFFF)));
        return codePoint.list().ofMinSize(min).ofMaxSize(max).map(points -> {
            StringBuilder builder = new StringBuilder();
            points.forEach(builder::appendCodePoint);
            return builder.toString();
        }).filter(s -> !s.isBlank() || min == 0);
    }

    private static Arbitrary<List<Attachment>> attachments() {
        // every field, the fetch reference (a signed URL, a file id) included: a queued file survives a restart
        // in both stores (docs/behaviour.md §15.4)
        return Combinators.combine(text(1, 10), text(0, 30).injectNull(0.3), text(1, 40).injectNull(0.3),
                        Arbitraries.longs().between(-1, Long.MAX_VALUE), text(1, 300).injectNull(0.3))
                .as(Attachment::new)
                .list().ofMaxSize(4);
    }

    private static Arbitrary<Instant> instants() {
        return Combinators.combine(Arbitraries.longs().between(-62_135_596_800L, 253_402_300_799L),
                Arbitraries.integers().between(0, 999_999_999)).as(Instant::ofEpochSecond);
    }
}

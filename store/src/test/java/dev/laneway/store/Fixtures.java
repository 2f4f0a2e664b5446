package dev.laneway.store;

import dev.laneway.core.Attachment;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.core.testing.ManualTime;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;

/** Entries, a thread-safe manual clock and raw SQL for the stores' tests (the Redis store's too). */
public final class Fixtures {

    public static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

    private Fixtures() {
    }

    /** A manual clock starting at {@link #T0} (core's ManualTime: the writer thread may read it). */
    public static ManualTime clock() {
        return new ManualTime(T0);
    }

    public static StoreOptions options(InstantSource clock) {
        return StoreOptions.defaults().withClock(clock).withSynchronous(StoreOptions.Synchronous.NORMAL);
    }

    /** A plain entry: a DM on telegram with platform id {@code m<seq>}. */
    public static JournalEntry entry(long seq) {
        return entry(seq, "telegram:dm:u1", "m" + seq);
    }

    public static JournalEntry entry(long seq, String session, String platformId) {
        InboundMessage message = InboundMessage.builder("telegram")
                .chatId("c1").senderId("u1").senderName("Ada")
                .text("message " + seq).platformMessageId(platformId)
                .receivedAt(T0.plusMillis(seq)).build();
        return new JournalEntry(seq, session, message, message.text(), QueueSettings.DEFAULTS, false);
    }

    /** An entry with every field set to something unusual. */
    public static JournalEntry everyField(long seq) {
        InboundMessage message = new InboundMessage("discord", "second-bot", "guild/123", "thread-9", "u-42",
                "Zoë 李 🚀", "/queue steer héllo wörld ✓ 𝕏 \u202Eltr\u202C line\nbreak\ttab 'quote\" \\ \u0000nul",
                List.of(new Attachment("photo", "cat.jpg", "image/jpeg", 48_213,
                                "https://cdn.example/attachments/1/2/cat.jpg?ex=65f&is=65e&hm=abc"),
                        new Attachment("file", null),
                        new Attachment("voice", "nöte 🎤.ogg")),
                "1234567890123456789", Instant.parse("2026-02-28T23:59:59.123456789Z"), false, true, true);
        QueueSettings settings = new QueueSettings(QueueMode.STEER_BACKLOG, Duration.ofMillis(1500), 7, DropPolicy.NEW);
        return new JournalEntry(seq, "discord:guild/123:thread-9", message, "héllo wörld ✓ 𝕏", settings, true);
    }

    /** An entry with every nullable field null and every list empty. */
    public static JournalEntry sparse(long seq) {
        InboundMessage message = new InboundMessage("console", "default", "local", null, "me", null, null, null,
                null, Instant.EPOCH, true, false, false);
        QueueSettings settings = new QueueSettings(QueueMode.INTERRUPT, Duration.ZERO, 1, DropPolicy.OLD);
        return new JournalEntry(seq, "console:local", message, "", settings, false);
    }

    static Connection raw(Path dataDir) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve(SqliteStore.FILE_NAME));
    }

    static long count(Path dataDir, String sql) throws SQLException {
        try (Connection connection = raw(dataDir); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? rows.getLong(1) : -1;
        }
    }

    static String text(Path dataDir, String sql) throws SQLException {
        try (Connection connection = raw(dataDir); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? rows.getString(1) : null;
        }
    }
}

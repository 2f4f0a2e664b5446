package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.app.FakeTelegramServer.Edit;
import dev.laneway.app.FakeTelegramServer.Forum;
import dev.laneway.app.FakeTelegramServer.Person;
import dev.laneway.app.FakeTelegramServer.Sent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Through the real CLI, its SQLite store, the real telegrambots SDK and the openai agent: a process
 * killed (SIGKILL) while an answer streams into a Telegram group leaves its live message behind; the
 * restart edits that message to carry {@code ⚠️ Interrupted.} and answers the message once, in a
 * new message (docs/behaviour.md §16.3).
 */
class StreamCrashEndToEndIT {

    private static final Duration WAIT = Duration.ofSeconds(40);
    private static final Forum GROUP = new Forum(-1001234567890L, "Team");
    private static final Person ANN = new Person(101, "Ann");
    private static final String INTERRUPTED = "⚠️ Interrupted.";

    @TempDir
    Path dir;

    @Test
    void kill9MidStream_thenRestart_marksTheOrphanedMessage_andAnswersOnce() throws Exception {
        try (FakeTelegramServer telegram = new FakeTelegramServer(); FakeModelServer model = new FakeModelServer()) {
            Path config = dir.resolve("laneway.yaml");
            Files.writeString(config, """
                    gateway:
                      dataDir: %s
                      http: { enabled: false }
                    agents:
                      list:
                        assistant: { provider: openai, baseUrl: %s, apiKey: sk-test, model: test-model }
                    channels:
                      telegram:
                        enabled: true
                        token: "${TELEGRAM_BOT_TOKEN}"
                        apiUrl: %s
                        groups: { requireMention: false }
                    """.formatted(dir.resolve("data"), model.baseUrl(), telegram.url()));
            Map<String, String> env = Map.of("TELEGRAM_BOT_TOKEN", FakeTelegramServer.TOKEN);
            String chat = Long.toString(GROUP.id());

            model.holdMidStream(true);
            try (CliProcess first = new CliProcess(dir, env, "run", "--config", config.toString())) {
                telegram.awaitFirstPoll(WAIT);
                telegram.inTopic(GROUP, 11, ANN, "hello");
                List<Sent> sent = telegram.awaitSent(1, s -> s.chatId().equals(chat), WAIT);
                assertEquals("model says:", sent.get(0).text().strip(), "the first text streamed at once");
                awaitLiveMessageOnDisk(dir.resolve("data").resolve("laneway.db"));
                first.close(); // SIGKILL mid-stream: the model has not finished
                first.awaitExit(WAIT);
            }
            assertEquals(1, model.requests().size());
            assertEquals(List.of(), telegram.edits(), "nothing more reached the message before the crash");

            model.holdMidStream(false);
            Map<String, String> info = Map.of("TELEGRAM_BOT_TOKEN", FakeTelegramServer.TOKEN, "LANEWAY_LOG_LEVEL", "INFO");
            try (CliProcess second = new CliProcess(dir, info, "run", "--config", config.toString())) {
                List<Edit> edits;
                try {
                    edits = telegram.awaitEdits(1, e -> e.text().contains(INTERRUPTED), WAIT);
                } catch (AssertionError e) {
                    throw new AssertionError(e.getMessage() + "\n" + second.stderr(), e);
                }
                Edit mark = edits.get(0);
                assertEquals(chat, mark.chatId());
                assertEquals(9000, mark.messageId(), "the orphaned live message is the one edited");
                assertEquals("model says:\n\n" + INTERRUPTED, mark.text());
                awaitShown(telegram, 9001, "model says: hello");
                model.awaitRequests(2, WAIT);
                second.sigterm();
                second.awaitExit(WAIT);
            }
            List<Sent> toGroup = telegram.sent().stream().filter(s -> s.chatId().equals(chat)).toList();
            assertEquals(2, toGroup.size(), "the partial message, then one fresh answer: " + toGroup);
            assertEquals(2, model.requests().size(), "answered once after the restart");
            List<Edit> edits = telegram.edits();
            assertTrue(edits.indexOf(edits.stream().filter(e -> e.text().contains(INTERRUPTED)).findFirst().orElseThrow())
                    == 0, "the mark goes before the new answer's edits: " + edits);
            assertEquals(1, edits.stream().filter(e -> e.text().contains(INTERRUPTED)).count(), "marked once: " + edits);
            assertTrue(edits.stream().filter(e -> e.messageId() == 9000).count() == 1, "only the mark edits it: " + edits);
        }
    }

    /** Waits until the bot's message {@code id} shows {@code text} (sent so, or edited to it). */
    private static void awaitShown(FakeTelegramServer telegram, int id, String text) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            List<Sent> sent = telegram.sent();
            List<Edit> edits = telegram.edits().stream().filter(e -> e.messageId() == id).toList();
            String shown = !edits.isEmpty() ? edits.get(edits.size() - 1).text()
                    : sent.size() > id - 9000 ? sent.get(id - 9000).text() : null;
            if (text.equals(shown)) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("message " + id + " never showed '" + text + "'; sent " + telegram.sent() + ", edits "
                + telegram.edits());
    }

    /** Waits until the store holds the live message (recorded just after the SDK's send returned). */
    private static void awaitLiveMessageOnDisk(Path db) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + db);
                 Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT count(*) FROM live_messages")) {
                if (rows.next() && rows.getLong(1) > 0) {
                    return;
                }
            } catch (java.sql.SQLException e) {
                // not created yet, or busy: try again
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the live message was never recorded in " + db);
    }
}

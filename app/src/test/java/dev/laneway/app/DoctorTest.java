package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.config.ConfigLoader;
import dev.laneway.store.DurableStore;
import dev.laneway.store.redis.RedisServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code laneway doctor} against the Telegram fake and the fake model server (docs/configuration.md
 * §18.2): every check passing, each kind of failure with what to do, an invalid file, the store's
 * schema version on SQLite and Redis, and no secret in the report.
 */
class DoctorTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final String KEY = "sk-model-secret-1";

    @TempDir
    Path dir;

    private String doctor(String yaml, Map<String, String> env, int expectedExit) throws Exception {
        Path file = dir.resolve("laneway.yaml");
        Files.writeString(file, yaml);
        StringWriter out = new StringWriter();
        int exit = new Doctor(new PrintWriter(out, true), TIMEOUT).run(file, env);
        assertEquals(expectedExit, exit, out.toString());
        return out.toString();
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private String yaml(String telegramUrl, String baseUrl, String model, int opsPort) {
        return """
                gateway:
                  dataDir: %s
                  http: { bind: 127.0.0.1, port: %d }
                channels:
                  telegram: { enabled: true, token: "${TELEGRAM_BOT_TOKEN}", apiUrl: "%s" }
                agents:
                  list:
                    assistant: { provider: openai, baseUrl: "%s", apiKey: "${OPENAI_API_KEY}", model: %s }
                """.formatted(dir.resolve("data"), opsPort, telegramUrl, baseUrl, model);
    }

    @Test
    void everyCheckPasses_oneLineEach_exit0_andNoSecretIsPrinted() throws Exception {
        try (FakeTelegramServer telegram = new FakeTelegramServer(); FakeModelServer model = new FakeModelServer()) {
            model.serves("llama3.2", "qwen2.5");
            String report = doctor(yaml(telegram.url(), model.baseUrl(), "llama3.2", freePort()),
                    Map.of("TELEGRAM_BOT_TOKEN", FakeTelegramServer.TOKEN, "OPENAI_API_KEY", KEY), 0);
            List<String> lines = report.lines().toList();
            assertEquals(6, lines.size(), report);
            assertTrue(lines.get(0).matches("ok    config: .*laneway.yaml is valid"), report);
            assertTrue(lines.get(1).startsWith("ok    store: ") && lines.get(1).endsWith(
                    "laneway.db: no store yet (the first run creates it, schema version "
                            + lines.get(1).replaceAll(".*schema version (\\d+)\\)$", "$1") + ")"), report);
            assertEquals("ok    telegram token: accepted: the bot @" + FakeTelegramServer.BOT_USERNAME, lines.get(2));
            assertEquals("ok    model llama3.2 (agent assistant): reachable, and it serves llama3.2", lines.get(3));
            assertTrue(lines.get(4).matches("ok    ops port: 127\\.0\\.0\\.1:\\d+ is free"), report);
            assertEquals("all 5 checks passed", lines.get(5));
            assertEquals(List.of("Bearer " + KEY), model.authorizations(), "the key went to the model server");
            assertFalse(report.contains(FakeTelegramServer.TOKEN) || report.contains(KEY), report);
        }
    }

    @Test
    void aRefusedToken_aMissingModel_aServerThatIsDown_aBusyPort_eachFailsWithWhatToDo_exit1() throws Exception {
        try (FakeTelegramServer telegram = new FakeTelegramServer(); FakeModelServer model = new FakeModelServer();
             ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            model.serves("llama3.2");
            int down = freePort();
            String yaml = yaml(telegram.url(), model.baseUrl(), "gpt-4o-mini", busy.getLocalPort()) + """
                        local: { provider: openai, baseUrl: "http://127.0.0.1:%d/v1", model: llama3.2 }
                      defaults: { agent: assistant }
                      bindings:
                        - { channel: telegram, chat: "42", agent: local }
                    """.formatted(down);
            String report = doctor(yaml, Map.of("TELEGRAM_BOT_TOKEN", "123:wrong-token", "OPENAI_API_KEY", KEY), 1);
            List<String> lines = report.lines().toList();
            assertEquals("FAIL  telegram token: Telegram refused the token (401 Unauthorized) -> copy the bot's token"
                    + " from @BotFather (/mybots, API Token) into TELEGRAM_BOT_TOKEN", lines.get(2));
            assertEquals("FAIL  model gpt-4o-mini (agent assistant): reachable, but it does not serve gpt-4o-mini"
                    + " (it has: llama3.2) -> set model to one it has, or add it to the server (Ollama: ollama pull"
                    + " gpt-4o-mini)", lines.get(3));
            assertEquals("FAIL  model llama3.2 (agent local): cannot reach http://127.0.0.1:" + down + "/v1 (connection"
                    + " refused) -> start the model server (Ollama: ollama serve), or fix baseUrl", lines.get(4));
            assertTrue(lines.get(5).startsWith("FAIL  ops port: 127.0.0.1:" + busy.getLocalPort() + " is not free ("),
                    report);
            assertTrue(lines.get(5).endsWith("-> stop what listens there (a gateway already running?) or set"
                    + " gateway.http.port"), report);
            assertEquals("4 of 6 checks failed", lines.get(6));
            assertFalse(report.contains("wrong-token") || report.contains(KEY), report);
        }
    }

    @Test
    void aKeyTheModelServerRefuses_failsNamingTheKey() throws Exception {
        try (FakeTelegramServer telegram = new FakeTelegramServer(); FakeModelServer model = new FakeModelServer()) {
            model.serves("llama3.2");
            model.requireKey("sk-the-right-one");
            String report = doctor(yaml(telegram.url(), model.baseUrl(), "llama3.2", 0),
                    Map.of("TELEGRAM_BOT_TOKEN", FakeTelegramServer.TOKEN, "OPENAI_API_KEY", KEY), 1);
            assertTrue(report.contains("FAIL  model llama3.2 (agent assistant): " + model.baseUrl()
                    + " refused the API key (401) -> check the agent's apiKey"), report);
            assertTrue(report.contains("ok    ops port: any free port (gateway.http.port: 0)"), report);
        }
    }

    @Test
    void anInvalidFile_failsWithItsProblems_andRunsNoOtherCheck() throws Exception {
        String report = doctor("""
                messages:
                  queue: { cap: 0 }
                """, Map.of(), 1);
        List<String> lines = report.lines().toList();
        assertTrue(lines.get(0).startsWith("FAIL  config: ") && lines.get(0).contains("laneway.yaml has 1 problem(s):"),
                report);
        assertTrue(lines.get(1).endsWith("laneway.yaml: messages.queue.cap: must be an integer >= 1, got 0 (line 2,"
                + " column 17)"), report);
        assertEquals("1 of 1 checks failed (the others need a valid config)", lines.get(2));
        assertEquals(3, lines.size(), report);
    }

    @Test
    void anExistingSqliteStore_isReportedWithItsSchemaVersion_andLeftAsItWas() throws Exception {
        String yaml = """
                gateway: { dataDir: %s, http: { enabled: false } }
                """.formatted(dir.resolve("data"));
        try (DurableStore store = StoreSetup.open(ConfigLoader.parse(yaml, "laneway.yaml", Map.of()))) {
            store.lastSequence();
        }
        Path db = dir.resolve("data").resolve("laneway.db");
        long size = Files.size(db);
        String report = doctor(yaml, Map.of(), 0);
        assertTrue(report.contains("ok    store: " + db.toAbsolutePath() + ": schema version "), report);
        assertTrue(report.contains(" (current)"), report);
        assertTrue(report.contains("ok    ops port: the ops server is off (gateway.http.enabled: false)"), report);
        assertEquals(size, Files.size(db), "doctor only reads the store");
    }

    @Test
    void aFileThatIsNotALanewayStore_failsSayingSo() throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        Files.writeString(data.resolve("laneway.db"), "not a database at all, just text long enough to be a header");
        String report = doctor("""
                gateway: { dataDir: %s, http: { enabled: false } }
                """.formatted(data), Map.of(), 1);
        assertTrue(report.lines().anyMatch(l -> l.startsWith("FAIL  store: ") && l.contains("laneway.db")), report);
    }

    @Test
    void aRedisStore_isReportedWithItsKeyLayoutVersion_beforeAndAfterItsFirstRun() throws Exception {
        RedisServer redis = RedisServer.shared();
        redis.flushAll();
        String yaml = """
                gateway:
                  http: { enabled: false }
                  store: { kind: redis, url: "%s", fleet: doctor-test }
                """.formatted(redis.url());
        String before = doctor(yaml, Map.of(), 0);
        assertTrue(before.contains("ok    store: " + redis.url() + " (fleet doctor-test): no store yet (the first run"
                + " creates it, schema version 1)"), before);
        try (var jedis = redis.client()) {
            assertTrue(jedis.keys("*").isEmpty(), "doctor wrote nothing to Redis");
        }
        try (DurableStore store = StoreSetup.open(ConfigLoader.parse(yaml, "laneway.yaml", Map.of()))) {
            store.lastSequence();
        }
        String after = doctor(yaml, Map.of(), 0);
        assertTrue(after.contains("ok    store: " + redis.url() + " (fleet doctor-test): schema version 1 (current)"),
                after);
        String other = doctor(yaml.replace("doctor-test", "someone-else"), Map.of(), 1);
        assertTrue(other.contains("FAIL  store: The Redis at " + redis.url() + " belongs to the Laneway fleet"
                + " \"doctor-test\""), other);
    }
}

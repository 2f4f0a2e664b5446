package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.laneway.channels.telegram.TelegramChannel;
import dev.laneway.core.SessionKey;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.store.StoreOptions;
import dev.laneway.store.redis.FleetTiming;
import dev.laneway.store.redis.RedisFleetMember;
import dev.laneway.store.redis.RedisServer;
import dev.laneway.store.redis.RedisStore;
import dev.laneway.store.redis.RedisTarget;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * {@code laneway fleet} against a throwaway Redis with real fleet members (docs/configuration.md
 * §18.4): the instances with their leases and permits, who polls Telegram, Slack on every instance,
 * the main permits against the cap, the sessions nobody holds; {@code --json}; nothing written; a
 * clear error on SQLite and when Redis cannot be reached (its URL named, its password not).
 */
class FleetCommandTest {

    private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
    private static final String TOKEN = "123456:telegram-secret-token";
    private final RedisServer server = RedisServer.shared();
    private final List<AutoCloseable> open = new ArrayList<>();

    @TempDir
    Path dir;

    @BeforeEach
    void emptyRedis() {
        server.flushAll();
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    /** A member of fleet "support" on its own manual clock: it beats when the clock is advanced. */
    private record Member(ManualTime clock, RedisStore store, RedisFleetMember fleet) {
        void beat() {
            clock.advance(FleetTiming.DEFAULTS.renewEvery());
        }
    }

    private Member member() {
        ManualTime clock = new ManualTime(T0);
        RedisStore store = RedisStore.open(RedisTarget.of(server.url(), "support"), StoreOptions.defaults().withClock(clock));
        open.add(store);
        RedisFleetMember fleet = RedisFleetMember.join(store, FleetTiming.DEFAULTS, clock, clock, Runnable::run);
        open.add(fleet);
        return new Member(clock, store, fleet);
    }

    private Path config(String url, String kind) throws Exception {
        Path file = dir.resolve("laneway.yaml");
        Files.writeString(file, """
                gateway:
                  dataDir: %s
                  store: { kind: %s%s }
                channels:
                  telegram: { enabled: true, token: "%s" }
                  slack: { enabled: true, botToken: "xoxb-1", appToken: "xapp-1" }
                agents:
                  defaults: { maxConcurrent: 3 }
                  list:
                    assistant: { provider: echo }
                """.formatted(dir.resolve("data"), kind, kind.equals("redis") ? ", url: \"" + url + "\", fleet: support"
                : "", TOKEN));
        return file;
    }

    @Test
    void printsTheInstances_whoPollsTelegram_thePermitsAndTheUnleasedSessions_andWritesNothing() throws Exception {
        Member a = member();
        Member b = member();
        a.fleet().leases().tryAcquire(SessionKey.of("telegram:dm:ada"), lost -> { }).orElseThrow();
        b.fleet().leases().tryAcquire(SessionKey.of(TelegramChannel.pollerLease(TOKEN)), lost -> { }).orElseThrow();
        a.fleet().permits("main", 3).tryAcquire().orElseThrow();
        a.beat();
        b.beat();
        InboundMessage message = InboundMessage.builder("slack").chatId("D1").senderId("cyd").text("hello")
                .platformMessageId("m1").receivedAt(T0).build();
        a.store().append(new JournalEntry(a.store().nextSequence(), "slack:dm:cyd", message, "hello",
                QueueSettings.DEFAULTS, false)).join();
        a.store().flush();
        Map<String, String> before = keyspace();

        CliRun run = CliRun.of("fleet", "--config", config(server.url(), "redis").toString());
        assertEquals(0, run.exitCode(), run.err());
        List<String> lines = run.out().lines().toList();
        String first = a.fleet().id().compareTo(b.fleet().id()) < 0 ? a.fleet().id() : b.fleet().id();
        assertEquals("fleet support on " + server.url() + ": 2 live instance(s)", lines.get(0), run.out());
        assertTrue(lines.get(1).matches("  instance +heartbeat +leases +main permits"), run.out());
        assertTrue(lines.get(2).startsWith("  " + first + " "), run.out());
        String rowA = lines.stream().filter(line -> line.startsWith("  " + a.fleet().id())).findFirst().orElseThrow();
        String rowB = lines.stream().filter(line -> line.startsWith("  " + b.fleet().id())).findFirst().orElseThrow();
        assertTrue(rowA.matches(".* s ago +1 +1"), rowA);
        assertTrue(rowB.matches(".* s ago +0 +0"), rowB + ": the poller's lease is not a session lease");
        assertTrue(lines.contains("ingress:"), run.out());
        assertTrue(lines.contains("  telegram (polling): " + b.fleet().id() + " (lease "
                + TelegramChannel.pollerLease(TOKEN) + ")"), run.out());
        assertTrue(lines.contains("  slack (socket-mode): every instance"), run.out());
        assertTrue(lines.contains("main permits: 1 in use of 3 (agents.defaults.maxConcurrent)"), run.out());
        assertEquals("pending: 1 message(s); sessions with no lease: 1 (slack:dm:cyd)", lines.get(lines.size() - 1));
        assertFalse(run.out().contains(TOKEN), "the token is never shown");
        assertEquals(before, keyspace(), "laneway fleet wrote nothing");

        CliRun json = CliRun.of("fleet", "--config", config(server.url(), "redis").toString(), "--json");
        assertEquals(0, json.exitCode(), json.err());
        JsonNode root = new ObjectMapper().readTree(json.out());
        assertEquals("support", root.get("fleet").asText());
        assertEquals(2, root.get("instances").size());
        JsonNode memberA = root.get("instances").get(first.equals(a.fleet().id()) ? 0 : 1);
        assertEquals(a.fleet().id(), memberA.get("id").asText());
        assertEquals(1, memberA.get("leases").asInt());
        assertEquals(1, memberA.get("mainPermits").asInt());
        assertTrue(memberA.get("heartbeatAgeMillis").asLong() >= 0);
        assertEquals("telegram", root.get("ingress").get(0).get("channel").asText());
        assertEquals(List.of(b.fleet().id()), List.of(root.get("ingress").get(0).get("instances").get(0).asText()));
        assertEquals(2, root.get("ingress").get(1).get("instances").size(), "slack: every instance");
        assertEquals(1, root.get("mainPermitsInUse").asInt());
        assertEquals(3, root.get("mainCap").asInt());
        assertEquals(1, root.get("pendingMessages").asInt());
        assertEquals("slack:dm:cyd", root.get("unleasedSessions").get(0).asText());
        assertEquals(before, keyspace(), "--json wrote nothing either");
    }

    @Test
    void aPollerLeaseNobodyHolds_isSaid() throws Exception {
        member();
        CliRun run = CliRun.of("fleet", "--config", config(server.url(), "redis").toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("  telegram (polling): nobody polls now (lease "
                + TelegramChannel.pollerLease(TOKEN) + " not held)"), run.out());
        assertTrue(run.out().contains("pending: 0 message(s); sessions with no lease: 0\n"), run.out());
    }

    @Test
    void onSqlite_itSaysThereIsNoFleet_exit2() throws Exception {
        CliRun run = CliRun.of("fleet", "--config", config(null, "sqlite").toString());
        assertEquals(2, run.exitCode(), run.out());
        assertTrue(run.err().contains("has gateway.store.kind: sqlite, a single instance without a fleet"), run.err());
        assertEquals("", run.out());
    }

    @Test
    void anUnreachableRedis_isNamedWithoutItsPassword_exit1() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        CliRun run = CliRun.of("fleet", "--config", config("redis://ops:TOP-SECRET@127.0.0.1:" + closed, "redis").toString());
        assertEquals(1, run.exitCode(), run.out());
        assertTrue(run.err().startsWith("laneway fleet: could not reach the Laneway store on Redis at redis://***@127.0.0.1:"
                + closed + " (gateway.store.url)"), run.err());
        assertFalse(run.err().contains("TOP-SECRET"), run.err());
    }

    /** Every key with its type and contents (not its ttl: the clock moves). */
    private Map<String, String> keyspace() {
        try (Jedis redis = server.client()) {
            Map<String, String> all = new TreeMap<>();
            for (String key : redis.keys("*")) {
                String type = redis.type(key);
                all.put(key, type + " " + switch (type) {
                    case "string" -> redis.get(key);
                    case "hash" -> new TreeMap<>(redis.hgetAll(key)).toString();
                    case "zset" -> redis.zrangeWithScores(key, 0, -1).toString();
                    default -> type;
                });
            }
            return all;
        }
    }
}

package dev.laneway.app;

import dev.laneway.store.redis.RedisServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import redis.clients.jedis.Jedis;

/**
 * A fleet of real {@code laneway run} processes (the shaded jar) on one throwaway redis-server, for
 * the process-level fleet tests (docs/behaviour.md §17): each instance takes Telegram updates in
 * webhook mode on a port of its own and answers through the fake Bot API ({@link FakeTelegramServer})
 * with the fake model ({@link FakeModelServer}), whose base URL carries the instance's label so an
 * answer names the instance that ran it. The test plays Telegram behind a load balancer:
 * {@link #post} sends an update to an instance and, when that one refuses it (503 while it stops) or
 * cannot be reached (it died), to the next live one, as Telegram's redelivery would.
 *
 * <p>Concurrency: {@code live} is a copy-on-write list read by posting threads and changed by the
 * test thread; everything else is set up before any posting starts.
 */
final class FleetRig implements AutoCloseable {

    static final String FLEET = "chaos";
    static final String SECRET = "chaos_Secret-1";
    private static final Duration START = Duration.ofSeconds(60);
    private static final Pattern DM_SESSION = Pattern.compile(":dm:(\\d+)$");

    final Path dir;
    final RedisServer redis = RedisServer.start();
    final FakeModelServer model = new FakeModelServer();
    final FakeTelegramServer telegram = new FakeTelegramServer();
    private final Duration ttl;
    private final Duration renewEvery;
    private final List<Instance> live = new CopyOnWriteArrayList<>();
    private final List<Instance> all = new CopyOnWriteArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** One {@code laneway run} process of the fleet. */
    record Instance(String label, int port, CliProcess cli) {
        long pid() {
            return cli.pid();
        }
    }

    FleetRig(Path dir, Duration ttl, Duration renewEvery, Duration modelLatency) throws IOException {
        this.dir = dir;
        this.ttl = ttl;
        this.renewEvery = renewEvery;
        model.latency(modelLatency);
    }

    Duration ttl() {
        return ttl;
    }

    /** Starts instances with these labels at once and waits until each takes webhook updates. */
    List<Instance> start(String... labels) throws Exception {
        List<Instance> started = new ArrayList<>();
        for (String label : labels) {
            started.add(launch(label));
        }
        for (Instance instance : started) {
            instance.cli().awaitLog("telegram: taking webhook updates", 1, START);
            live.add(instance);
        }
        return started;
    }

    private Instance launch(String label) throws IOException {
        int port = freePort();
        Path config = dir.resolve("laneway-" + label + ".yaml");
        Files.writeString(config, """
                gateway:
                  http: { enabled: false }
                  shutdownGraceMs: 5000
                  store: { kind: redis, url: "%s", fleet: %s }
                  fleet: { leaseTtlMs: %d, renewEveryMs: %d }
                agents:
                  defaults: { maxConcurrent: 64 }
                  list:
                    assistant: { provider: openai, baseUrl: "%s", apiKey: k, model: m, maxRetries: 0 }
                messages:
                  queue: { mode: followup, debounceMs: 0 }
                channels:
                  telegram:
                    enabled: true
                    token: "%s"
                    apiUrl: "%s"
                    streaming: off
                    mode: webhook
                    webhook: { url: "https://bot.example.test/tg", listen: "127.0.0.1:%d", path: /tg, secretToken: %s }
                """.formatted(redis.url(), FLEET, ttl.toMillis(), renewEvery.toMillis(), model.baseUrl(label),
                FakeTelegramServer.TOKEN, telegram.url(), port, SECRET));
        CliProcess cli = new CliProcess(dir, Map.of("LANEWAY_LOG_LEVEL", System.getProperty("fleet.logLevel", "INFO")), "run", "--config", config.toString());
        Instance instance = new Instance(label, port, cli);
        all.add(instance);
        return instance;
    }

    List<Instance> live() {
        return List.copyOf(live);
    }

    /** kill -9: the process dies at once, leaving its leases to expire. */
    void kill9(Instance instance) throws InterruptedException {
        live.remove(instance);
        instance.cli().close();
        instance.cli().awaitExit(START);
    }

    /** SIGTERM, without waiting: the instance stops taking updates (503) and gives its leases back. */
    void sigterm(Instance instance) {
        live.remove(instance);
        instance.cli().sigterm();
    }

    /**
     * Posts one update, first to the live instance {@code preferred} picks (modulo their number), and
     * while it is refused or cannot be delivered to the next one, until {@code deadline}.
     */
    void post(String update, int preferred, long deadlineNanos) throws InterruptedException {
        for (int attempt = 0; System.nanoTime() < deadlineNanos; attempt++) {
            List<Instance> now = live();
            if (now.isEmpty()) {
                Thread.sleep(50);
                continue;
            }
            Instance to = now.get(Math.floorMod(preferred + attempt, now.size()));
            try {
                HttpResponse<Void> response = http.send(HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + to.port() + "/tg"))
                        .timeout(Duration.ofSeconds(10))
                        .header("Content-Type", "application/json")
                        .header("X-Telegram-Bot-Api-Secret-Token", SECRET)
                        .POST(HttpRequest.BodyPublishers.ofString(update)).build(), HttpResponse.BodyHandlers.discarding());
                if (response.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // the instance died or is not listening: Telegram sends the update again
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no instance took the update " + update);
    }

    /** The chat ids of the DM sessions whose lease this instance holds now. */
    Set<Long> chatsLeasedBy(Instance instance) {
        Set<Long> chats = new HashSet<>();
        try (Jedis jedis = redis.client()) {
            for (String key : jedis.keys("laneway:{" + FLEET + "}:lease:*")) {
                String holder = jedis.hget(key, "instance");
                Matcher dm = DM_SESSION.matcher(key);
                if (holder != null && holder.contains("-" + instance.pid() + "-") && dm.find()) {
                    chats.add(Long.parseLong(dm.group(1)));
                }
            }
        }
        return chats;
    }

    /** Messages the fleet has accepted and not ended yet. */
    long pending() {
        try (Jedis jedis = redis.client()) {
            return jedis.zcard("laneway:{" + FLEET + "}:pending");
        }
    }

    /** The end of what every instance logged so far, for a failure message. */
    String logs() {
        StringBuilder out = new StringBuilder();
        for (Instance instance : all) {
            out.append("---- ").append(instance.label()).append(" (pid ").append(instance.pid()).append(")\n")
                    .append(FleetTraffic.tail(instance.cli().stderr(), 120)).append('\n');
        }
        return out.toString();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        Path logs = Path.of("target", "fleet-logs");
        for (Instance instance : all) {
            instance.cli().close();
            try { // kept for a look after a failure (the test's directory is removed)
                Files.createDirectories(logs);
                Files.writeString(logs.resolve(instance.label() + ".log"), instance.cli().stderr());
            } catch (IOException e) {
                // only a diagnostic
            }
        }
        telegram.close();
        model.close();
        redis.close();
    }
}

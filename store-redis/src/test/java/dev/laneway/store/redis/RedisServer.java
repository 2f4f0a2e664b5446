package dev.laneway.store.redis;

import dev.laneway.core.testing.Await;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import redis.clients.jedis.Jedis;

/**
 * A throwaway {@code redis-server} for tests: its own free port on 127.0.0.1, its own temporary
 * directory, nothing persisted unless a test asks ({@code --save "" --appendonly no}); started and
 * waited for until it answers PING, killed by {@link #close()}. Tests never use a Redis they did not
 * start (not the machine's on 6379) and never mock Redis.
 *
 * <p>{@link #shared()} is one server per test JVM (tests run one at a time in it; each starts from
 * {@link #flushAll()}), stopped when the JVM exits. A test that stops or restarts Redis starts its own
 * with {@link #start}.
 *
 * <p>{@code redis-server} must be on the PATH (or in /usr/bin, /usr/sbin, /usr/local/bin); without
 * it the tests fail, naming what to install. {@code ./run-tests} installs it when it can.
 */
public final class RedisServer implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);
    private static RedisServer shared; // guarded by RedisServer.class

    private final Path dir;
    private final List<String> extraArgs;
    private final int port;
    private Process process;

    private RedisServer(Path dir, int port, List<String> extraArgs) {
        this.dir = dir;
        this.port = port;
        this.extraArgs = List.copyOf(extraArgs);
    }

    /** The server shared by this JVM's tests, started on first use. */
    public static synchronized RedisServer shared() {
        if (shared == null || !shared.running()) {
            shared = start();
            RedisServer server = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "redis-server-stop"));
        }
        return shared;
    }

    /** A server of its own, with extra {@code redis-server} arguments (e.g. {@code --appendonly yes}). */
    public static RedisServer start(String... extraArgs) {
        IllegalStateException last = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            Path dir;
            try {
                dir = Files.createTempDirectory("laneway-redis-test");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            RedisServer server = new RedisServer(dir, freePort(), List.of(extraArgs));
            try {
                server.launch();
                return server;
            } catch (IllegalStateException e) {
                last = e; // the port was taken meanwhile: another one
                server.close();
            }
        }
        throw last;
    }

    public int port() {
        return port;
    }

    /** {@code redis://127.0.0.1:<port>}. */
    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** A new connection to the server, for looking at what a store wrote. Close it. */
    public Jedis client() {
        return new Jedis("127.0.0.1", port);
    }

    /** Deletes every key of every database. */
    public void flushAll() {
        try (Jedis jedis = client()) {
            jedis.flushAll();
            jedis.configSet("maxmemory", "0");
        }
    }

    /** Stops the server (SIGTERM, as an operator's restart; it saves an append-only file if it keeps one). */
    public void stop() {
        if (process != null) {
            process.destroy();
            try {
                if (!process.waitFor(20, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
            process = null;
        }
    }

    /** Starts the stopped server again on the same port and directory. */
    public void restart() {
        stop();
        launch();
    }

    public boolean running() {
        return process != null && process.isAlive();
    }

    @Override
    public void close() {
        stop();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            // a temp dir left behind is harmless
        }
    }

    private void launch() {
        List<String> command = new ArrayList<>(List.of(executable(), "--port", Integer.toString(port),
                "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString(),
                "--daemonize", "no", "--logfile", dir.resolve("redis.log").toString()));
        command.addAll(extraArgs); // later arguments win
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("stdout.log").toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + command.get(0), e);
        }
        try {
            Await.until("redis-server on port " + port + " answers PING", START_TIMEOUT, () -> {
                if (!process.isAlive()) {
                    throw new IllegalStateException("redis-server on port " + port + " exited: " + log());
                }
                return answers();
            });
        } catch (AssertionError e) {
            stop();
            throw new IllegalStateException("redis-server on port " + port + " did not answer PING: " + log(), e);
        }
    }

    private boolean answers() {
        try (Jedis jedis = client()) {
            return "PONG".equals(jedis.ping());
        } catch (RuntimeException e) {
            return e.getMessage() != null && e.getMessage().startsWith("NOAUTH"); // up, with a password
        }
    }

    private String log() {
        try {
            Path log = dir.resolve("redis.log");
            return Files.exists(log) ? Files.readString(log).strip() : "(no log)";
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code redis-server} from the PATH or the usual places; fails naming what to install. */
    static String executable() {
        List<String> places = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            places.addAll(List.of(path.split(File.pathSeparator)));
        }
        places.addAll(List.of("/usr/bin", "/usr/sbin", "/usr/local/bin", "/opt/homebrew/bin"));
        for (String place : places) {
            File candidate = new File(place, "redis-server");
            if (candidate.canExecute()) {
                return candidate.getPath();
            }
        }
        throw new IllegalStateException("redis-server is not installed: the Redis store's tests start their own"
                + " throwaway server. Install it (Debian/Ubuntu: apt-get install redis-server; macOS: brew install"
                + " redis); ./run-tests installs it when it runs as root or with sudo.");
    }
}

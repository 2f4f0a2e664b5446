package dev.laneway.bench;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.Jedis;

/**
 * A {@code redis-server} of the benchmark's own, on a free port of 127.0.0.1, keeping an append-only
 * file fsynced on every write ({@code appendfsync always}: nothing acknowledged is lost, like SQLite's
 * {@code synchronous=FULL}) in a scratch directory of {@code java.io.tmpdir}, so both stores write to
 * the same disk. Never the machine's Redis. {@code LANEWAY_BENCH_REDIS_FSYNC=everysec} (in the
 * environment, which JMH's forks inherit) measures Redis's default AOF policy instead.
 */
final class BenchRedis implements AutoCloseable {

    private final Path dir;
    private final int port;
    private final Process process;

    private BenchRedis(Path dir, int port, Process process) {
        this.dir = dir;
        this.port = port;
        this.process = process;
    }

    static BenchRedis start() throws IOException {
        return start(fsync());
    }

    /** With this AOF fsync policy ({@code always}, {@code everysec}, {@code no}). */
    static BenchRedis start(String fsync) throws IOException {
        Path dir = DataDirs.create("laneway-bench-redis-");
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Process process = new ProcessBuilder(List.of(executable(), "--port", Integer.toString(port), "--bind",
                "127.0.0.1", "--save", "", "--appendonly", "yes", "--appendfsync", fsync, "--dir", dir.toString(),
                "--logfile", dir.resolve("redis.log").toString()))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            try (Jedis jedis = new Jedis("127.0.0.1", port)) {
                if ("PONG".equals(jedis.ping())) {
                    return new BenchRedis(dir, port, process);
                }
            } catch (RuntimeException e) {
                if (System.nanoTime() > deadline || !process.isAlive()) {
                    process.destroyForcibly();
                    throw new IllegalStateException("redis-server on port " + port + " did not start", e);
                }
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** The AOF fsync policy: {@code always} unless the environment says otherwise. */
    static String fsync() {
        return System.getenv().getOrDefault("LANEWAY_BENCH_REDIS_FSYNC", "always");
    }

    String url() {
        return "redis://127.0.0.1:" + port;
    }

    int port() {
        return port;
    }

    /** The server's process id (for its CPU time, which {@code INFO cpu} also gives). */
    long pid() {
        return process.pid();
    }

    /** A new connection to it (the caller closes it). */
    Jedis connect() {
        return new Jedis("127.0.0.1", port);
    }

    @Override
    public void close() throws IOException {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        DataDirs.delete(dir);
    }

    private static String executable() {
        for (String place : (System.getenv().getOrDefault("PATH", "") + File.pathSeparator + "/usr/bin:/usr/sbin:/usr/local/bin")
                .split(File.pathSeparator)) {
            File candidate = new File(place, "redis-server");
            if (candidate.canExecute()) {
                return candidate.getPath();
            }
        }
        throw new IllegalStateException("redis-server is not installed (Debian/Ubuntu: apt-get install redis-server)");
    }
}

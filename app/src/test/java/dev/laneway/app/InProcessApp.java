package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.fail;

import dev.laneway.config.ConfigLoader;
import dev.laneway.config.LanewayConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The real {@link GatewayApp} in this JVM, wired from a YAML text exactly as {@code laneway run}
 * wires it (real store, agent, channels, scheduler and ops server), with the console channel on
 * pipes: {@link #type} is a line typed at the console, {@link #awaitLine} waits for a printed one.
 */
final class InProcessApp implements AutoCloseable {

    private final GatewayApp app;
    private final PipedOutputStream keyboard = new PipedOutputStream();
    private final LinkedBlockingQueue<String> printed = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    InProcessApp(String yaml, Map<String, String> env) throws IOException, dev.laneway.config.ConfigException {
        LanewayConfig config = ConfigLoader.parse(yaml, "in-process.yaml", env);
        PipedInputStream consoleIn = new PipedInputStream(keyboard);
        app = new GatewayApp(config, consoleIn, new PrintStream(new LineSink(printed), true, StandardCharsets.UTF_8),
                () -> { });
    }

    InProcessApp start() {
        app.start();
        return this;
    }

    GatewayApp app() {
        return app;
    }

    void type(String line) {
        try {
            keyboard.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            keyboard.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits for the next console line that equals {@code expected}. */
    void awaitLine(String expected, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String line = printed.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                fail("no console line '" + expected + "' within " + timeout + "; printed so far: " + seen);
            }
            seen.add(line);
            if (line.equals(expected)) {
                return;
            }
        }
    }

    /** Waits for the next console line that starts with {@code prefix}; returns it. */
    String awaitLineStartingWith(String prefix, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String line = printed.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                fail("no console line starting with '" + prefix + "' within " + timeout + "; printed so far: " + seen);
            }
            seen.add(line);
            if (line.startsWith(prefix)) {
                return line;
            }
        }
    }

    /** Every console line printed so far. */
    List<String> printed() {
        List<String> rest = new ArrayList<>();
        printed.drainTo(rest);
        seen.addAll(rest);
        return List.copyOf(seen);
    }

    HttpResponse<String> get(String path) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.opsPort() + path))
                .timeout(Duration.ofSeconds(10)).GET().build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A POST to the ops endpoint, with {@code Authorization: Bearer <token>} when a token is given. */
    HttpResponse<String> post(String path, String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.opsPort() + path))
                .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.noBody());
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws IOException {
        app.shutdown();
        keyboard.close();
    }

    /** Splits what the console prints into lines. */
    private static final class LineSink extends OutputStream {
        private final LinkedBlockingQueue<String> lines;
        private final java.io.ByteArrayOutputStream current = new java.io.ByteArrayOutputStream();

        LineSink(LinkedBlockingQueue<String> lines) {
            this.lines = lines;
        }

        @Override
        public synchronized void write(int b) {
            if (b == '\n') {
                lines.add(current.toString(StandardCharsets.UTF_8).replace("\r", ""));
                current.reset();
            } else {
                current.write(b);
            }
        }
    }
}

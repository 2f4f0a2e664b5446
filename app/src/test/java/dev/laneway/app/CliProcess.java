package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The real {@code laneway} CLI in a child process (the shaded jar), driven over stdin/stdout like
 * a person at the console. Output lines are collected by a reader thread; tests wait for lines
 * with a deadline rather than sleeping.
 */
final class CliProcess implements AutoCloseable {

    private final Process process;
    private final Writer stdin;
    private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();
    private final StringBuilder stderr = new StringBuilder();
    private final List<Thread> pumps = new ArrayList<>();

    CliProcess(Path workDir, Map<String, String> env, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar().toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile());
        builder.environment().putAll(env);
        process = builder.start();
        stdin = new java.io.OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        pump(new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)), lines::add);
        pump(new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)),
                line -> {
                    synchronized (stderr) {
                        stderr.append(line).append('\n');
                        stderr.notifyAll();
                    }
                });
    }

    static Path jar() {
        String jar = System.getProperty("laneway.jar");
        if (jar == null) {
            fail("system property laneway.jar is not set (run through Maven failsafe)");
        }
        return Path.of(jar);
    }

    private void pump(BufferedReader reader, java.util.function.Consumer<String> sink) {
        Thread thread = new Thread(() -> {
            try (reader) {
                String line;
                while ((line = reader.readLine()) != null) {
                    sink.accept(line);
                }
            } catch (IOException ignored) {
                // the process ended
            }
        });
        thread.setDaemon(true);
        thread.start();
        pumps.add(thread);
    }

    long pid() {
        return process.pid();
    }

    void send(String line) throws IOException {
        stdin.write(line + "\n");
        stdin.flush();
    }

    void closeInput() throws IOException {
        stdin.close();
    }

    /** Waits for the next output line that equals {@code expected}; returns the lines before it. */
    List<String> awaitLine(String expected, Duration timeout) throws InterruptedException {
        List<String> before = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                fail("no line '" + expected + "' within " + timeout + "; output so far: " + seen + "\nstderr:\n" + stderr());
            }
            seen.add(line);
            if (line.equals(expected)) {
                return before;
            }
            before.add(line);
        }
    }

    /** Collects the next {@code count} output lines. */
    List<String> nextLines(int count, Duration timeout) throws InterruptedException {
        List<String> result = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (result.size() < count) {
            String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                fail("only " + result + " within " + timeout + "\nstderr:\n" + stderr());
            }
            seen.add(line);
            result.add(line);
        }
        return result;
    }

    int awaitExit(Duration timeout) throws InterruptedException {
        assertTrue(process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS), "the CLI did not exit; stderr:\n" + stderr());
        for (Thread pump : pumps) {
            pump.join(timeout.toMillis());
        }
        return process.exitValue();
    }

    /** Output lines not yet consumed by an await. */
    List<String> remaining() {
        List<String> rest = new ArrayList<>();
        lines.drainTo(rest);
        seen.addAll(rest);
        return rest;
    }

    /**
     * Waits until the log (stderr) holds {@code count} lines containing {@code fragment}: how a test
     * knows that something without console output happened, e.g. that a run has finished.
     */
    void awaitLog(String fragment, int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (stderr) {
            while (occurrences(stderr.toString(), fragment) < count) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    fail("the log never had " + count + " x '" + fragment + "' within " + timeout + "; stderr:\n" + stderr);
                }
                TimeUnit.NANOSECONDS.timedWait(stderr, left);
            }
        }
    }

    private static int occurrences(String text, String fragment) {
        int count = 0;
        for (int at = text.indexOf(fragment); at >= 0; at = text.indexOf(fragment, at + fragment.length())) {
            count++;
        }
        return count;
    }

    String stderr() {
        synchronized (stderr) {
            return stderr.toString();
        }
    }

    /**
     * Sends SIGTERM. Through the {@link ProcessHandle}: {@code Process.destroy()} would also close
     * our ends of the child's pipes, and lose everything it prints while shutting down.
     */
    void sigterm() {
        process.toHandle().destroy();
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}

package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real CLI refuses an ops endpoint bound beyond loopback without an admin token, in
 * {@code validate} and in {@code run} alike, with the same located error (docs/configuration.md §4);
 * with a token, {@code validate} accepts it and never prints the token.
 */
class ConsoleBindIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void validateAndRun_refuseABindBeyondLoopbackWithoutAToken_andValidateAcceptsItWithOne() throws Exception {
        Path open = dir.resolve("open.yaml");
        Files.writeString(open, """
                gateway:
                  dataDir: %s
                  http: { bind: 0.0.0.0, port: 0 }
                """.formatted(dir.resolve("data")));
        String expected = "gateway.http.bind: is 0.0.0.0, not a loopback address: the ops endpoint would be reachable"
                + " from other machines, so it needs gateway.http.adminToken";
        for (String command : new String[] {"validate", "run"}) {
            try (CliProcess cli = new CliProcess(dir, Map.of(), command, "--config", open.toString())) {
                assertEquals(2, cli.awaitExit(WAIT), command);
                assertTrue(cli.stderr().contains(expected), command + ": " + cli.stderr());
            }
        }
        assertFalse(Files.exists(dir.resolve("data").resolve("laneway.db")), "run opened nothing");

        Path guarded = dir.resolve("guarded.yaml");
        Files.writeString(guarded, """
                gateway:
                  http: { bind: 0.0.0.0, port: 0, adminToken: "${LANEWAY_ADMIN_TOKEN}" }
                """);
        try (CliProcess cli = new CliProcess(dir, Map.of("LANEWAY_ADMIN_TOKEN", "token-SECRET-abcdef0123"), "validate",
                "--config", guarded.toString())) {
            assertEquals(0, cli.awaitExit(WAIT), cli.stderr());
            assertFalse(cli.stderr().contains("SECRET") || String.join("\n", cli.remaining()).contains("SECRET"));
        }
    }
}

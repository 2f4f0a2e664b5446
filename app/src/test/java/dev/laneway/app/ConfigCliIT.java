package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code laneway validate} and {@code config show} on files a user should not be able to hurt themselves with. */
class ConfigCliIT {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void validate_refusesATelegramApiUrlWithAPath_andNeverPrintsUrlCredentials() throws Exception {
        Path config = dir.resolve("laneway.yaml");
        Files.writeString(config, """
                agents:
                  list:
                    assistant: { provider: openai, model: m, baseUrl: "https://bob:${PASSWORD}@llm.example/v1?key=sk-SECRET-2" }
                channels:
                  telegram: { apiUrl: "https://api.telegram.org/custom/path?x=1" }
                """);
        try (CliProcess cli = new CliProcess(dir, Map.of("PASSWORD", "SECRET-1"), "validate", "--config", config.toString())) {
            assertEquals(2, cli.awaitExit(WAIT));
            String err = cli.stderr();
            assertTrue(err.contains("channels.telegram.apiUrl: must be scheme://host[:port] without user info, path, query"
                    + " or fragment"), err);
            assertTrue(err.contains("got \"https://***@llm.example/v1?key=***\""), err);
            assertFalse(err.contains("SECRET"), err);
        }
    }

    @Test
    void configShow_masksCredentialsInsideUrls() throws Exception {
        Path config = dir.resolve("laneway.yaml");
        Files.writeString(config, """
                agents:
                  list:
                    assistant: { provider: openai, model: m, baseUrl: "https://bob:sk-SECRET-1@llm.example/v1" }
                channels:
                  slack: { apiUrl: "https://slack.example/api/?token=SECRET-2" }
                """);
        try (CliProcess cli = new CliProcess(dir, Map.of(), "config", "show", "--config", config.toString())) {
            assertEquals(0, cli.awaitExit(WAIT));
            String out = String.join("\n", cli.remaining());
            assertTrue(out.contains("baseUrl: https://***@llm.example/v1"), out);
            assertTrue(out.contains("apiUrl: https://slack.example/api/?token=***"), out);
            assertFalse(out.contains("SECRET"), out);
        }
    }

    @Test
    void validate_refusesAFileOverOneMebibyte_inSeconds() throws Exception {
        Path config = dir.resolve("huge.yaml");
        Files.writeString(config, "gateway:\n  dataDir: " + "x".repeat(10_000_000) + "\n");
        try (CliProcess cli = new CliProcess(dir, Map.of(), "validate", "--config", config.toString())) {
            assertEquals(2, cli.awaitExit(Duration.ofSeconds(10)));
            assertEquals(config + ": config file is too large: 10000021 bytes, the limit is 1048576 (1 MiB)\n", cli.stderr());
        }
    }

    @Test
    void validate_namesTheLineAndColumnOfABadByte_andOfTooDeepNesting() throws Exception {
        Path latin1 = dir.resolve("latin1.yaml");
        Files.write(latin1, "gateway:\n  dataDir: caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        try (CliProcess cli = new CliProcess(dir, Map.of(), "validate", "--config", latin1.toString())) {
            assertEquals(2, cli.awaitExit(WAIT));
            assertEquals(latin1 + ": config file is not UTF-8 text: byte 0xE9 is not valid UTF-8 here (save the file as"
                    + " UTF-8) (line 2, column 15)\n", cli.stderr());
        }
        Path deep = dir.resolve("deep.yaml");
        Files.writeString(deep, "a: " + "[".repeat(1_100) + "]".repeat(1_100) + "\n");
        try (CliProcess cli = new CliProcess(dir, Map.of(), "validate", "--config", deep.toString())) {
            assertEquals(2, cli.awaitExit(WAIT));
            assertEquals(deep + ": the YAML is nested deeper than 64 levels (no setting is nested more than five deep)"
                    + " (line 1, column 67)\n", cli.stderr());
        }
    }
}

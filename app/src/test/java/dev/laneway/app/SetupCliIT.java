package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code init}, {@code doctor} and {@code config schema} from the shaded jar, as a script runs them
 * (docs/configuration.md §18): stdin is not a terminal, so init asks nothing.
 */
class SetupCliIT {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void initInAScript_thenDoctor_onTheWrittenFiles() throws Exception {
        try (FakeTelegramServer telegram = new FakeTelegramServer(); FakeModelServer model = new FakeModelServer()) {
            model.serves("llama3.2");
            Path out = dir.resolve("setup");
            try (CliProcess init = new CliProcess(dir, Map.of("TELEGRAM_BOT_TOKEN", FakeTelegramServer.TOKEN), "init",
                    "--channels", "telegram", "--telegram-api-url", telegram.url(), "--base-url", model.baseUrl(),
                    "--model", "llama3.2", "--dir", out.toString())) {
                assertEquals(0, init.awaitExit(WAIT), init.stderr());
                List<String> lines = init.remaining();
                assertEquals("  set -a; . " + out.resolve(".env") + "; set +a; ./laneway run --config "
                        + out.resolve("laneway.yaml"), lines.getLast());
                assertFalse(String.join("\n", lines).contains(FakeTelegramServer.TOKEN));
            }
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(out.resolve(".env"))));
            // a second init in a script refuses to overwrite
            try (CliProcess again = new CliProcess(dir, Map.of("TELEGRAM_BOT_TOKEN", FakeTelegramServer.TOKEN), "init",
                    "--channels", "telegram", "--base-url", model.baseUrl(), "--dir", out.toString())) {
                assertEquals(1, again.awaitExit(WAIT), again.stderr());
                assertEquals(List.of(out.resolve("laneway.yaml") + " already exists: nothing written (--force overwrites"
                        + " it; --dir writes elsewhere)."), again.remaining());
            }
            // doctor on the written config, with the ops server moved off 8787 (another gateway may hold it)
            Path config = out.resolve("laneway.yaml");
            Files.writeString(config, Files.readString(config).replace("port: 8787", "port: 0"));
            try (CliProcess doctor = new CliProcess(dir, Map.of("TELEGRAM_BOT_TOKEN", FakeTelegramServer.TOKEN),
                    "doctor", "--config", config.toString())) {
                assertEquals(0, doctor.awaitExit(WAIT), doctor.stderr());
                assertEquals("all 5 checks passed", doctor.remaining().getLast());
            }
            try (CliProcess doctor = new CliProcess(dir, Map.of("TELEGRAM_BOT_TOKEN", "1:wrong"),
                    "doctor", "--config", config.toString())) {
                assertEquals(1, doctor.awaitExit(WAIT), doctor.stderr());
                assertEquals("1 of 5 checks failed", doctor.remaining().getLast());
            }
        }
    }

    @Test
    void configSchema_printsTheSchema() throws Exception {
        try (CliProcess cli = new CliProcess(dir, Map.of(), "config", "schema")) {
            assertEquals(0, cli.awaitExit(WAIT), cli.stderr());
            String json = String.join("\n", cli.remaining());
            assertEquals("https://json-schema.org/draft/2020-12/schema",
                    new ObjectMapper().readTree(json).get("$schema").asText());
            assertTrue(json.contains("\"additionalProperties\" : false"), "closed mappings");
        }
    }
}

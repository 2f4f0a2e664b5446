package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.config.ConfigLoader;
import dev.laneway.config.LanewayConfig;
import dev.laneway.core.agent.settings.OpenAiSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code laneway init} against the Telegram fake and the fake model server (docs/configuration.md
 * §18.3): scripted and interactive, tokens accepted and refused, the model server down or without the
 * model, the files' modes and contents, never overwriting without asking, and a written config that
 * validates.
 */
class InitTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final String KEY = "sk-init-secret-key";

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();

    /** Answers from a script; records which questions were asked without echo. */
    private static final class Script implements Prompter {
        final Deque<String> answers;
        final List<String> asked = new ArrayList<>();
        final List<String> askedSecretly = new ArrayList<>();

        Script(String... answers) {
            this.answers = new ArrayDeque<>(List.of(answers));
        }

        @Override
        public String ask(String question) {
            asked.add(question);
            return answers.poll();
        }

        @Override
        public String askSecret(String question) {
            askedSecretly.add(question);
            return answers.poll();
        }
    }

    private int init(Prompter prompter, Init.Given given, boolean force, Map<String, String> env) {
        return new Init(prompter, new PrintWriter(out, true), TIMEOUT).run(given, dir, force, true, env);
    }

    private static Init.Given telegram(String telegramUrl, String baseUrl, String model) {
        return new Init.Given(List.of("telegram"), null, URI.create(telegramUrl), null, null, null, null, null,
                baseUrl, null, model);
    }

    /** The written config, loaded with the written .env as the environment, as a user's shell would. */
    private LanewayConfig loadWritten() throws Exception {
        Map<String, String> env = new HashMap<>();
        Path secrets = dir.resolve(".env");
        if (Files.exists(secrets)) {
            Files.readAllLines(secrets).stream().filter(l -> !l.startsWith("#") && l.contains("="))
                    .forEach(l -> env.put(l.substring(0, l.indexOf('=')), l.substring(l.indexOf('=') + 1)));
        }
        return ConfigLoader.load(dir.resolve("laneway.yaml"), env);
    }

    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Test
    void scripted_checksTheTokenAndTheModel_writesAValidConfig_andA600EnvFile_andPrintsTheNextCommand() throws Exception {
        try (FakeTelegramServer telegram = new FakeTelegramServer(); FakeModelServer model = new FakeModelServer()) {
            model.serves("llama3.2");
            int exit = init(null, telegram(telegram.url(), model.baseUrl(), "llama3.2"), false,
                    Map.of("TELEGRAM_BOT_TOKEN", FakeTelegramServer.TOKEN, "OPENAI_API_KEY", KEY));
            String printed = out.toString();
            assertEquals(0, exit, printed);
            assertEquals(List.of(
                    "Checking, as laneway doctor does:",
                    "ok    telegram token: accepted: the bot @" + FakeTelegramServer.BOT_USERNAME,
                    "ok    model llama3.2: reachable, and it serves llama3.2",
                    "Wrote " + dir.resolve("laneway.yaml") + " and " + dir.resolve(".env") + " (mode 600: it holds the"
                            + " secrets; keep it out of version control).",
                    "Next, start Laneway with the secrets loaded:",
                    "  set -a; . " + dir.resolve(".env") + "; set +a; ./laneway run --config " + dir.resolve("laneway.yaml")),
                    printed.lines().toList());
            assertFalse(printed.contains(FakeTelegramServer.TOKEN) || printed.contains(KEY), printed);

            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(".env"))));
            String env = Files.readString(dir.resolve(".env"));
            assertTrue(env.contains("\nTELEGRAM_BOT_TOKEN=" + FakeTelegramServer.TOKEN + "\n"), env);
            assertTrue(env.contains("\nOPENAI_API_KEY=" + KEY + "\n"), env);
            String yaml = Files.readString(dir.resolve("laneway.yaml"));
            assertTrue(yaml.contains("token: ${TELEGRAM_BOT_TOKEN}") && yaml.contains("apiKey: ${OPENAI_API_KEY}"), yaml);
            assertFalse(yaml.contains(FakeTelegramServer.TOKEN) || yaml.contains(KEY), "no secret in the config");
            assertTrue(yaml.startsWith("# laneway.yaml, written by `laneway init`"), "commented");

            LanewayConfig config = loadWritten();
            assertTrue(config.channels().telegram().enabled());
            assertEquals(FakeTelegramServer.TOKEN, config.channels().telegram().token().value());
            assertEquals(URI.create(telegram.url()), config.channels().telegram().apiUrl());
            OpenAiSettings agent = (OpenAiSettings) config.agents().defaultAgentConfig();
            assertEquals(model.baseUrl(), agent.baseUrl());
            assertEquals("llama3.2", agent.model());
            assertEquals(KEY, agent.apiKey());
        }
    }

    @Test
    void scripted_aRefusedToken_writesNothing_andSaysWhatToDo() throws Exception {
        try (FakeTelegramServer telegram = new FakeTelegramServer(); FakeModelServer model = new FakeModelServer()) {
            model.serves("llama3.2");
            int exit = init(null, telegram(telegram.url(), model.baseUrl(), "llama3.2"), false,
                    Map.of("TELEGRAM_BOT_TOKEN", "1:not-the-token"));
            String printed = out.toString();
            assertEquals(1, exit, printed);
            assertTrue(printed.contains("FAIL  telegram token: Telegram refused the token (401 Unauthorized) -> copy"
                    + " the bot's token from @BotFather (/mybots, API Token) into TELEGRAM_BOT_TOKEN"), printed);
            assertTrue(printed.endsWith("Nothing written: fix what the lines above say and run laneway init again (or pass"
                    + " --skip-checks to write the files without checking).\n"), printed);
            assertFalse(printed.contains("not-the-token"), printed);
            assertFalse(Files.exists(dir.resolve("laneway.yaml")) || Files.exists(dir.resolve(".env")));
        }
    }

    @Test
    void scripted_aModelServerThatIsDown_orWithoutTheModel_writesNothing() throws Exception {
        int down = closedPort();
        int exit = init(null, new Init.Given(List.of("console"), null, null, null, null, null, null, null,
                "http://127.0.0.1:" + down + "/v1", null, "llama3.2"), false, Map.of());
        assertEquals(1, exit, out.toString());
        assertTrue(out.toString().contains("FAIL  model llama3.2: cannot reach http://127.0.0.1:" + down + "/v1 (connection"
                + " refused) -> start the model server"),
                out.toString());
        assertFalse(Files.exists(dir.resolve("laneway.yaml")));

        try (FakeModelServer model = new FakeModelServer()) {
            model.serves("qwen2.5", "llama3.1");
            out.getBuffer().setLength(0);
            exit = init(null, new Init.Given(List.of(), null, null, null, null, null, null, null, model.baseUrl(), null,
                    "llama3.2"), false, Map.of());
            assertEquals(1, exit, out.toString());
            assertTrue(out.toString().contains("FAIL  model llama3.2: reachable, but it does not serve llama3.2 (it has:"
                    + " qwen2.5, llama3.1) -> set model to one it has, or add it to the server (Ollama: ollama pull"
                    + " llama3.2)"), out.toString());
            assertFalse(Files.exists(dir.resolve("laneway.yaml")));
        }
    }

    @Test
    void scripted_neverOverwritesAnExistingFile_withoutForce() throws Exception {
        Files.writeString(dir.resolve("laneway.yaml"), "# mine\n");
        try (FakeModelServer model = new FakeModelServer()) {
            model.serves("m");
            Init.Given console = new Init.Given(List.of("console"), null, null, null, null, null, null, null,
                    model.baseUrl(), null, "m");
            assertEquals(1, init(null, console, false, Map.of()));
            assertEquals(dir.resolve("laneway.yaml") + " already exists: nothing written (--force overwrites it;"
                    + " --dir writes elsewhere).\n", out.toString());
            assertEquals("# mine\n", Files.readString(dir.resolve("laneway.yaml")));

            Files.writeString(dir.resolve(".env"), "MINE=1\n");
            Files.delete(dir.resolve("laneway.yaml"));
            out.getBuffer().setLength(0);
            assertEquals(1, init(null, console, false, Map.of()), out.toString());
            assertEquals("MINE=1\n", Files.readString(dir.resolve(".env")), ".env is a file init never clobbers either");
            assertFalse(Files.exists(dir.resolve("laneway.yaml")), "nothing written when one of the two exists");

            out.getBuffer().setLength(0);
            assertEquals(0, init(null, console, true, Map.of()), out.toString());
            assertTrue(Files.readString(dir.resolve("laneway.yaml")).startsWith("# laneway.yaml, written by"));
            assertEquals("MINE=1\n", Files.readString(dir.resolve(".env")), "no secrets: .env is left alone");
            assertTrue(out.toString().contains("(no secrets, so no .env)"), out.toString());
        }
    }

    @Test
    void interactive_asksForEverything_readsSecretsWithoutEcho_andWrites() throws Exception {
        try (FakeTelegramServer telegram = new FakeTelegramServer(); FakeModelServer model = new FakeModelServer()) {
            model.serves("llama3.2:latest");
            Script script = new Script("telegram", FakeTelegramServer.TOKEN, model.baseUrl(), KEY, "llama3.2");
            Init.Given nothing = new Init.Given(null, null, URI.create(telegram.url()), null, null, null, null, null,
                    null, null, null);
            assertEquals(0, init(script, nothing, false, Map.of()), out.toString());
            assertEquals(List.of("Telegram bot token (from @BotFather): ", "API key (Enter for none, as for Ollama): "),
                    script.askedSecretly);
            assertEquals("Model [gpt-4o-mini]: ", script.asked.get(2));
            assertTrue(out.toString().contains("ok    model llama3.2: reachable, and it serves llama3.2"), out.toString());
            assertFalse(out.toString().contains(FakeTelegramServer.TOKEN) || out.toString().contains(KEY));
            assertEquals("llama3.2", ((OpenAiSettings) loadWritten().agents().defaultAgentConfig()).model());
        }
    }

    @Test
    void interactive_asksBeforeOverwriting_andBeforeWritingDespiteAFailedCheck() throws Exception {
        Files.writeString(dir.resolve("laneway.yaml"), "# mine\n");
        int down = closedPort();
        Init.Given given = new Init.Given(List.of("console"), null, null, null, null, null, null, null,
                "http://127.0.0.1:" + down + "/v1", "", "llama3.2");
        Script no = new Script("n");
        assertEquals(1, init(no, given, false, Map.of()));
        assertEquals(List.of(dir.resolve("laneway.yaml") + " already exists. Overwrite it? [y/N] "), no.asked);
        assertEquals("# mine\n", Files.readString(dir.resolve("laneway.yaml")));

        Script yesTwice = new Script("y", "y");
        assertEquals(0, init(yesTwice, given, false, Map.of()), out.toString());
        assertEquals("A check failed (see above). Write the files anyway? [y/N] ", yesTwice.asked.get(1));
        assertTrue(loadWritten().channels().console().enabled(), "console only: the console answers");
    }

    @Test
    void discordAndSlack_withoutChecks_writeAConfigThatValidates() throws Exception {
        Init.Given given = new Init.Given(List.of("slack", "discord"), null, null, "discord-token", null, "xoxb-1",
                "xapp-1", null, Init.OLLAMA_URL, null, null);
        assertEquals(0, new Init(null, new PrintWriter(out, true), TIMEOUT).run(given, dir, false, false, Map.of()),
                out.toString());
        LanewayConfig config = loadWritten();
        assertTrue(config.channels().discord().enabled() && config.channels().slack().enabled());
        assertEquals("xapp-1", config.channels().slack().appToken().value());
        assertEquals("llama3.2", ((OpenAiSettings) config.agents().defaultAgentConfig()).model(), "Ollama's default");
        assertFalse(Files.readString(dir.resolve("laneway.yaml")).contains("apiKey"), "no key, no apiKey line");
    }

    @Test
    void scripted_aMissingToken_orAnUnknownPlatform_isBadInput_exit2() {
        assertEquals(2, init(null, new Init.Given(List.of("telegram"), null, null, null, null, null, null, null, null,
                null, null), false, Map.of()));
        assertTrue(out.toString().startsWith("laneway init: Telegram bot token is missing (set TELEGRAM_BOT_TOKEN, or"
                + " pass its flag)\nNothing written.\n"), out.toString());
        out.getBuffer().setLength(0);
        assertEquals(2, init(null, new Init.Given(List.of("matrix"), null, null, null, null, null, null, null, null,
                null, null), false, Map.of()));
        assertTrue(out.toString().startsWith("laneway init: unknown chat platform \"matrix\" (choose from telegram,"
                + " discord, slack)"), out.toString());
    }

    @Test
    void theCommandLine_takesFlags() throws Exception {
        try (FakeModelServer model = new FakeModelServer()) {
            model.serves("m");
            CliRun run = CliRun.of("init", "--no-input", "--channels", "console", "--base-url", model.baseUrl(),
                    "--model", "m", "--dir", dir.toString());
            assertEquals(0, run.exitCode(), run.out() + run.err());
            assertTrue(run.out().contains("ok    model m: reachable, and it serves m"), run.out());
            assertEquals("m", ((OpenAiSettings) loadWritten().agents().defaultAgentConfig()).model());
        }
    }
}

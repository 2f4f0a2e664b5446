package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real CLI with a YAML file (echo with a delay), driven over the console like a user. */
class ConsoleEndToEndIT {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void aBurstDuringARun_getsOneCollectedReply_andFollowupGivesOneReplyPerMessage() throws Exception {
        Path config = dir.resolve("laneway.yaml");
        Files.writeString(config, """
                gateway: { http: { port: 0 } }
                agents:
                  list:
                    assistant: { provider: echo, delayMs: 1500 }
                messages:
                  queue: { debounceMs: 300 }
                """);
        try (CliProcess cli = new CliProcess(dir, Map.of(), "run", "--config", config.toString())) {
            cli.send("first");
            cli.send("second");
            cli.send("third");
            cli.awaitLine("echo: first", WAIT);
            assertEquals(List.of(
                    "[Queued messages while agent was busy]",
                    "",
                    "---",
                    "Queued #1",
                    "second",
                    "",
                    "---",
                    "Queued #2",
                    "third"), cli.nextLines(9, WAIT).subList(0, 9).stream()
                    .map(line -> line.startsWith("echo: ") ? line.substring(6) : line).toList());

            cli.send("/queue followup");
            cli.awaitLine("⚙️ Queue mode set to followup.", WAIT);
            cli.send("x");
            cli.send("y");
            cli.send("z");
            assertEquals(List.of("echo: x", "echo: y", "echo: z"), cli.nextLines(3, WAIT));

            cli.closeInput();
            assertEquals(0, cli.awaitExit(WAIT));
            assertTrue(cli.remaining().isEmpty(), "nothing answered twice");
        }
    }

    @Test
    void theDefaultsRunTheConsoleWithTheEchoAgent_andEndOfInputAnswersEverythingFirst() throws Exception {
        try (CliProcess cli = new CliProcess(dir, Map.of(), "run")) {
            cli.send("hello there");
            cli.closeInput();
            assertEquals(List.of("echo: hello there"), cli.nextLines(1, WAIT));
            assertEquals(0, cli.awaitExit(WAIT));
        }
    }

    @Test
    void interrupt_abortsTheRunningTurn_andAnswersOnlyTheNewMessage() throws Exception {
        Path config = dir.resolve("laneway.yaml");
        Files.writeString(config, """
                gateway: { http: { port: 0 } }
                agents:
                  list:
                    assistant: { provider: echo, delayMs: 2000 }
                messages:
                  queue: { mode: interrupt }
                """);
        try (CliProcess cli = new CliProcess(dir, Map.of(), "run", "--config", config.toString())) {
            cli.send("slow one");
            cli.send("never mind, this");
            assertEquals(List.of("echo: never mind, this"), cli.nextLines(1, WAIT));
            cli.closeInput();
            assertEquals(0, cli.awaitExit(WAIT));
            assertFalse(cli.remaining().contains("echo: slow one"), "an aborted run sends nothing");
        }
    }

    @Test
    void sigterm_stopsTheGatewayGracefully() throws Exception {
        try (CliProcess cli = new CliProcess(dir, Map.of("LANEWAY_LOG_LEVEL", "INFO"), "run")) {
            cli.send("ping");
            cli.awaitLine("echo: ping", WAIT);
            cli.sigterm();
            cli.awaitExit(WAIT);
            assertTrue(cli.stderr().contains("laneway stopped"), cli.stderr());
        }
    }

    @Test
    void validate_reportsEveryProblemWithLineAndColumn_andExits2() throws Exception {
        Path config = dir.resolve("bad.yaml");
        Files.writeString(config, """
                messages:
                  queue:
                    cap: 0
                    mode: sometimes
                gateway:
                  admision: {}
                """);
        try (CliProcess cli = new CliProcess(dir, Map.of(), "validate", "--config", config.toString())) {
            assertEquals(2, cli.awaitExit(WAIT));
            String err = cli.stderr();
            assertTrue(err.contains("messages.queue.cap") && err.contains("line 3"), err);
            assertTrue(err.contains("messages.queue.mode") && err.contains("sometimes"), err);
            assertTrue(err.contains("gateway.admision") && err.contains("did you mean \"admission\""), err);
        }
    }

    @Test
    void validate_andRun_warnAboutAChannelWithATokenThatIsNotEnabled() throws Exception {
        Path config = dir.resolve("laneway.yaml");
        Files.writeString(config, """
                gateway: { http: { port: 0 } }
                channels:
                  telegram: { token: "123:abc" }
                """);
        try (CliProcess cli = new CliProcess(dir, Map.of(), "validate", "--config", config.toString())) {
            assertEquals(0, cli.awaitExit(WAIT));
            String out = String.join("\n", cli.remaining());
            assertTrue(out.contains("valid, with 1 warning(s)"), out);
            assertTrue(out.contains("channels.telegram has a token but is not enabled"), out);
        }
        try (CliProcess cli = new CliProcess(dir, Map.of(), "run", "--config", config.toString())) {
            cli.closeInput();
            assertEquals(0, cli.awaitExit(WAIT));
            assertTrue(cli.stderr().contains("laneway: warning: channels.telegram has a token but is not enabled"),
                    cli.stderr());
        }
    }

    @Test
    void configShow_masksSecrets() throws Exception {
        Path config = dir.resolve("laneway.yaml");
        Files.writeString(config, """
                gateway: { http: { port: 0 } }
                agents:
                  list:
                    assistant: { provider: openai, model: m, apiKey: "${MY_KEY}" }
                """);
        try (CliProcess cli = new CliProcess(dir, Map.of("MY_KEY", "sk-very-secret-123"), "config", "show",
                "--config", config.toString())) {
            assertEquals(0, cli.awaitExit(WAIT));
            String out = String.join("\n", cli.remaining());
            assertTrue(out.contains("***"), out);
            assertFalse(out.contains("sk-very-secret-123"), out);
        }
    }
}

package dev.laneway.config;

import static dev.laneway.config.Configs.failure;
import static dev.laneway.config.Configs.onlyProblem;
import static dev.laneway.config.Configs.problems;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** One test per kind of problem: each names the key, the bad value, the line and the column. */
class ConfigErrorsTest {

    @Test
    void unknownKey_namesFullPathAndSuggestsTheCloseKnownKey() {
        assertEquals("laneway.yaml: messages.queue.debounceMS: unknown key, did you mean \"debounceMs\"? (line 3, column 5)",
                onlyProblem("""
                        messages:
                          queue:
                            debounceMS: 500
                        """));
    }

    @Test
    void unknownKey_withoutCloseMatch_listsTheKnownKeys() {
        assertEquals("laneway.yaml: session.colour: unknown key (known keys: dmScope, groupScope) (line 2, column 3)",
                onlyProblem("""
                        session:
                          colour: blue
                        """));
    }

    @Test
    void unknownTopLevelKey_suggestsAKeyDifferingOnlyInCase() {
        assertEquals("laneway.yaml: Gateway: unknown key, did you mean \"gateway\"? (line 1, column 1)",
                onlyProblem("Gateway: {}\n"));
    }

    @Test
    void wrongType_namesWhatWasExpectedAndWhatWasGiven() {
        assertEquals("laneway.yaml: messages.queue.cap: must be an integer >= 1, got a list (line 3, column 10)",
                onlyProblem("""
                        messages:
                          queue:
                            cap: [1, 2]
                        """));
    }

    @Test
    void sectionThatIsNotAMapping_isAProblem() {
        assertEquals("laneway.yaml: gateway.http: must be a mapping (key: value lines), got 8787 (line 2, column 9)",
                onlyProblem("""
                        gateway:
                          http: 8787
                        """));
    }

    @Test
    void outOfRangeValue_readsLikeTheSpecExample() {
        assertEquals("laneway.yaml: messages.queue.cap: must be an integer >= 1, got 0 (line 7, column 10)",
                onlyProblem("""
                        messages:
                          queue:
                            mode: collect
                            debounceMs: 1000
                            maxWaitMs: 10000
                            notifyDrops: true
                            cap: 0
                        """));
    }

    @Test
    void capPerSender_aboveTheCapOrNegative_isAProblemAtItsValue() {
        assertEquals("laneway.yaml: messages.queue.capPerSender: must be an integer between 0 and messages.queue.cap"
                + " (8), got 9 (line 4, column 19)", onlyProblem("""
                        messages:
                          queue:
                            cap: 8
                            capPerSender: 9
                        """));
        assertEquals("laneway.yaml: messages.queue.capPerSender: must be an integer >= 0, got -1 (line 1, column 36)",
                onlyProblem("messages: { queue: { capPerSender: -1 } }\n"));
        assertEquals("laneway.yaml: messages.queue.capPerSender: must be an integer between 0 and messages.queue.cap"
                + " (20), got 21 (line 1, column 36)", onlyProblem("messages: { queue: { capPerSender: 21 } }\n"),
                "against the default cap when none is set");
    }

    @Test
    void outOfRangeValues_portMaxConcurrentAndMaxPendingRuns() {
        String report = failure("""
                gateway:
                  http: { port: 70000 }
                  admission: { maxPendingRuns: -1 }
                agents:
                  defaults: { maxConcurrent: 0 }
                lanes:
                  cron: { maxConcurrent: 0 }
                """).getMessage();
        assertEquals("""
                laneway.yaml: gateway.http.port: must be an integer between 0 and 65535, got 70000 (line 2, column 17)
                laneway.yaml: gateway.admission.maxPendingRuns: must be an integer >= 0, got -1 (line 3, column 32)
                laneway.yaml: agents.defaults.maxConcurrent: must be an integer >= 1, got 0 (line 5, column 30)
                laneway.yaml: lanes.cron.maxConcurrent: must be an integer >= 1, got 0 (line 7, column 26)""", report);
    }

    @Test
    void wrongBoolean_isAProblem() {
        assertEquals("laneway.yaml: channels.console.enabled: must be true or false, got \"sometimes\" (line 3, column 14)",
                onlyProblem("""
                        channels:
                          console:
                            enabled: sometimes
                        """));
    }

    @Test
    void missingEnvironmentVariable_namesTheVariableAndTheKey() {
        assertEquals("laneway.yaml: channels.telegram.token: environment variable TELEGRAM_BOT_TOKEN is not set "
                        + "(set it, or write ${TELEGRAM_BOT_TOKEN:-default} to give a default) (line 4, column 12)",
                onlyProblem("""
                        channels:
                          telegram:
                            enabled: true
                            token: ${TELEGRAM_BOT_TOKEN}
                        """));
    }

    @Test
    void badDuration_namesTheValueAndTheAcceptedForms() {
        assertEquals("laneway.yaml: messages.queue.debounceMs: invalid duration \"fast\" (use 1500, 1.5s, 2m or 1m30s) (line 3, column 17)",
                onlyProblem("""
                        messages:
                          queue:
                            debounceMs: fast
                        """));
    }

    @Test
    void negativeDurationAndBadTtl_areProblems() {
        List<ConfigProblem> problems = problems("""
                lanes: { warnAfterMs: -5 }
                messages:
                  queue: { ttl: 1 day }
                """);
        assertEquals(List.of(
                new ConfigProblem("lanes.warnAfterMs", 1, 23, "invalid duration \"-5\" (use 1500, 1.5s, 2m or 1m30s)"),
                new ConfigProblem("messages.queue.ttl", 3, 17, "invalid duration \"1 day\" (use 1500, 1.5s, 2m or 1m30s)")),
                problems);
    }

    @Test
    void badEnumValue_listsTheAllowedValues() {
        assertEquals("laneway.yaml: messages.queue.mode: must be one of steer, followup, collect, steer-backlog, interrupt, "
                        + "got \"fastest\" (line 3, column 11)",
                onlyProblem("""
                        messages:
                          queue:
                            mode: fastest
                        """));
    }

    @Test
    void badEnumValues_inEverySection() {
        List<String> messages = problems("""
                session: { dmScope: per-user, groupScope: room }
                messages:
                  queue: { drop: random }
                  steer: { scope: anyone }
                """).stream().map(p -> p.path() + ": " + p.message()).toList();
        assertEquals(List.of(
                "session.dmScope: must be one of per-peer, main, got \"per-user\"",
                "session.groupScope: must be one of thread, chat, sender, got \"room\"",
                "messages.queue.drop: must be one of old, new, summarize, got \"random\"",
                "messages.steer.scope: must be one of session, sender, got \"anyone\""), messages);
    }

    @Test
    void enabledChannelWithoutToken_namesTheVariableToSet() {
        assertEquals("laneway.yaml: channels.telegram.token: required when channels.telegram.enabled is true "
                        + "(set TELEGRAM_BOT_TOKEN) (line 3, column 5)",
                onlyProblem("""
                        channels:
                          telegram:
                            enabled: true
                        """));
    }

    @Test
    void enabledChannelWithEmptyToken_pointsAtTheTokenKey() {
        assertEquals("laneway.yaml: channels.discord.token: required when channels.discord.enabled is true "
                        + "(set DISCORD_BOT_TOKEN) (line 4, column 5)",
                onlyProblem("""
                        channels:
                          discord:
                            enabled: true
                            token: ${DISCORD_BOT_TOKEN:-}
                        """));
    }

    @Test
    void enabledSlackWithoutTokens_namesBothVariables() {
        String report = failure("""
                channels:
                  slack: { enabled: true }
                """).getMessage();
        assertTrue(report.contains("channels.slack.botToken: required when channels.slack.enabled is true (set SLACK_BOT_TOKEN)"), report);
        assertTrue(report.contains("channels.slack.appToken: required when channels.slack.enabled is true (set SLACK_APP_TOKEN)"), report);
    }

    @Test
    void unknownProvider_namesTheKnownProviders() {
        assertEquals("laneway.yaml: agents.list.bot.provider: must be one of echo, openai, command, got \"anthropic\" (line 4, column 17)",
                onlyProblem("""
                        agents:
                          list:
                            bot:
                              provider: anthropic
                              model: claude
                        """));
    }

    @Test
    void missingProvider_isAProblemAtTheAgent() {
        assertEquals("laneway.yaml: agents.list.bot.provider: required (one of echo, openai, command) (line 3, column 5)",
                onlyProblem("""
                        agents:
                          list:
                            bot: { model: gpt-4o }
                        """));
    }

    @Test
    void keyOfAnotherProvider_isAnUnknownKey() {
        assertEquals("laneway.yaml: agents.list.bot.model: unknown key (known keys: provider, delayMs, runTimeoutMs, fallback, fallbackNotice) (line 3, column 28)",
                onlyProblem("""
                        agents:
                          list:
                            bot: { provider: echo, model: gpt-4o }
                        """));
    }

    @Test
    void unknownTool_pointsAtTheListItemAndSuggests() {
        assertEquals("laneway.yaml: agents.list.assistant.tools[1]: must be a built-in tool (current_time), "
                        + "got \"current-time\", did you mean \"current_time\"? (line 8, column 11)",
                onlyProblem("""
                        agents:
                          list:
                            assistant:
                              provider: openai
                              model: gpt-4o-mini
                              tools:
                                - current_time
                                - current-time
                        """));
    }

    @Test
    void baseUrlThatIsNotAbsoluteHttp_isAProblem() {
        assertEquals("laneway.yaml: agents.list.assistant.baseUrl: must be an absolute http or https URL without"
                        + " ?query or #fragment (like https://api.openai.com/v1), got \"api.openai.com/v1\" (line 6, column 16)",
                onlyProblem("""
                        agents:
                          list:
                            assistant:
                              provider: openai
                              model: gpt-4o-mini
                              baseUrl: api.openai.com/v1
                        """));
    }

    @Test
    void openAiAgentWithoutModel_isAProblemAtTheAgent() {
        assertEquals("laneway.yaml: agents.list.assistant.model: required for provider openai (e.g. model: gpt-4o-mini), or name an endpoint of providers (endpoint: <name>) (line 3, column 5)",
                onlyProblem("""
                        agents:
                          list:
                            assistant:
                              provider: openai
                        """));
    }

    @Test
    void openAiNumbersOutOfRange_areProblems() {
        List<String> messages = problems("""
                agents:
                  list:
                    assistant: { provider: openai, model: m, temperature: 2.5, maxTokens: 0, maxRetries: -1 }
                """).stream().map(ConfigProblem::message).toList();
        assertEquals(List.of("must be a number between 0 and 2, got 2.5", "must be an integer >= 1, got 0",
                "must be an integer between 0 and 10, got -1"), messages);
    }

    @Test
    void runTimeoutOutOfRange_isAProblemOfEveryProvider() {
        List<ConfigProblem> problems = problems("""
                agents:
                  list:
                    assistant: { provider: echo, runTimeoutMs: 0 }
                    gpt: { provider: openai, model: m, runTimeoutMs: 25h }
                    shell: { provider: command, command: [x], runTimeoutMs: -5 }
                """);
        assertEquals(List.of(
                new ConfigProblem("agents.list.assistant.runTimeoutMs", 3, 48, "must be a duration > 0 and at most 24h, got 0"),
                new ConfigProblem("agents.list.gpt.runTimeoutMs", 4, 54, "must be a duration > 0 and at most 24h, got \"25h\""),
                new ConfigProblem("agents.list.shell.runTimeoutMs", 5, 61,
                        "invalid duration \"-5\" (use 1500, 1.5s, 2m or 1m30s)")),
                problems);
    }

    @Test
    void commandAgent_needsANonEmptyCommandList() {
        List<ConfigProblem> problems = problems("""
                agents:
                  defaults: { agent: a }
                  list:
                    a: { provider: command }
                    b: { provider: command, command: [] }
                    c: { provider: command, command: my-agent --json }
                """);
        assertEquals(List.of(
                new ConfigProblem("agents.list.a.command", 4, 5, "required for provider command (e.g. command: [my-agent, --json])"),
                new ConfigProblem("agents.list.b.command", 5, 38, "must not be empty (e.g. command: [my-agent, --json]), got []"),
                new ConfigProblem("agents.list.c.command", 6, 38, "must be a list (like [a, b]), got \"my-agent --json\"")),
                problems);
    }

    @Test
    void defaultAgentMissingFromTheList_isAProblem() {
        assertEquals("laneway.yaml: agents.defaults.agent: no agent named \"asistant\" in agents.list, did you mean "
                        + "\"assistant\"? (agents.list has: assistant, shell) (line 3, column 12)",
                onlyProblem("""
                        agents:
                          defaults:
                            agent: asistant
                          list:
                            assistant: { provider: echo }
                            shell: { provider: command, command: [sh] }
                        """));
    }

    @Test
    void threeDifferentErrors_areAllReportedInFileOrder() {
        ConfigException e = failure("""
                gateway:
                  htp: { port: 80 }
                messages:
                  queue:
                    cap: 0
                    debounceMs: soon
                """);
        assertEquals(3, e.problems().size(), e.getMessage());
        assertEquals("""
                laneway.yaml: gateway.htp: unknown key, did you mean "http"? (line 2, column 3)
                laneway.yaml: messages.queue.cap: must be an integer >= 1, got 0 (line 5, column 10)
                laneway.yaml: messages.queue.debounceMs: invalid duration "soon" (use 1500, 1.5s, 2m or 1m30s) (line 6, column 17)""",
                e.getMessage());
    }

    @Test
    void yamlSyntaxError_hasLineAndColumn() {
        List<ConfigProblem> problems = problems("""
                gateway:
                  dataDir: ./data
                  http: [1, 2
                session: {}
                """);
        assertEquals(1, problems.size());
        ConfigProblem problem = problems.getFirst();
        assertTrue(problem.message().startsWith("invalid YAML: "), problem.message());
        assertEquals(4, problem.line());
        assertTrue(problem.column() > 0);
    }

    @Test
    void duplicateKey_isAProblemAtTheSecondOne() {
        assertEquals("laneway.yaml: messages.queue.cap: duplicate key (first written at line 3) (line 4, column 5)",
                onlyProblem("""
                        messages:
                          queue:
                            cap: 5
                            cap: 6
                        """));
    }

    @Test
    void topLevelThatIsNotAMapping_isAProblem() {
        assertEquals("laneway.yaml: the file must be a mapping of keys to values, got a list (line 1, column 1)",
                onlyProblem("- a\n- b\n"));
    }

    @Test
    void mainLaneInLanes_pointsToAgentsDefaults() {
        assertEquals("laneway.yaml: lanes.main: the main lane's cap is agents.defaults.maxConcurrent, set it there (line 2, column 3)",
                onlyProblem("""
                        lanes:
                          main: { maxConcurrent: 2 }
                        """));
    }

    @Test
    void misspeltWarnAfterMs_isNotMistakenForALane() {
        assertEquals("laneway.yaml: lanes.warnAfterMS: unknown key, did you mean \"warnAfterMs\"? (line 2, column 3)",
                onlyProblem("""
                        lanes:
                          warnAfterMS: 3000
                        """));
    }

    @Test
    void byChannelOfTheWrongShape_isAProblem() {
        assertEquals("laneway.yaml: messages.queue.byChannel.discord: must be a queue mode (steer, followup, collect, "
                        + "steer-backlog, interrupt) or a mapping with any of mode, debounceMs, cap, drop; got a list (line 4, column 16)",
                onlyProblem("""
                        messages:
                          queue:
                            byChannel:
                              discord: [collect]
                        """));
    }

    @Test
    void missingFile_namesTheFile() {
        java.nio.file.Path missing = java.nio.file.Path.of("target", "no-such-dir", "laneway.yaml");
        ConfigException e = org.junit.jupiter.api.Assertions.assertThrows(ConfigException.class,
                () -> ConfigLoader.load(missing, java.util.Map.of()));
        assertEquals(missing + ": config file not found: " + missing.toAbsolutePath(), e.getMessage());
    }
}

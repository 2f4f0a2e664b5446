package dev.laneway.config;

import static dev.laneway.config.Configs.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.SessionScope;
import dev.laneway.core.SteerScope;
import dev.laneway.core.agent.settings.CommandSettings;
import dev.laneway.core.agent.settings.EchoSettings;
import dev.laneway.core.agent.settings.OpenAiSettings;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files that load, and what they load into. */
class ConfigLoaderTest {

    @Test
    void emptyFile_runsTheConsoleWithTheEchoAgentAssistant() throws Exception {
        LanewayConfig config = parse("");
        assertEquals(LanewayConfig.defaults(), config);
        assertTrue(config.channels().console().enabled());
        assertEquals("assistant", config.agents().defaultAgent());
        assertEquals(EchoSettings.defaults("assistant"), config.agents().defaultAgentConfig());
    }

    @Test
    void fileWithOnlyCommentsAndEmptySections_isTheDefaults() throws Exception {
        assertEquals(LanewayConfig.defaults(), parse("# nothing yet\ngateway:\nagents:\n  list:\nmessages: {}\n"));
    }

    @Test
    void defaults_matchTheSpec() {
        LanewayConfig d = LanewayConfig.defaults();
        assertEquals(Path.of("./data"), d.gateway().dataDir());
        assertEquals(new GatewayConfig.Http(true, "127.0.0.1", 8787), d.gateway().http());
        assertEquals(1000, d.gateway().admission().maxPendingRuns());
        assertEquals(Duration.ofSeconds(10), d.gateway().shutdownGrace());
        assertEquals(SessionScope.DEFAULTS, d.session());
        assertEquals(Map.of("subagent", 8, "cron", 1, "fallback", 4), d.lanes().caps());
        assertEquals(Duration.ofMillis(2000), d.lanes().warnAfter());
        assertEquals(4, d.agents().maxConcurrent());
        MessagesConfig.Queue q = d.messages().queue();
        assertEquals(List.of(QueueMode.COLLECT, Duration.ofMillis(1000), 20, DropPolicy.SUMMARIZE, true, Duration.ofHours(1)),
                List.of(q.mode(), q.debounce(), q.cap(), q.drop(), q.notifyDrops(), q.ttl()));
        assertNull(q.maxWait(), "absent maxWaitMs means 10 x debounce");
        assertEquals(MessagesConfig.Inbound.DEFAULTS, d.messages().inbound());
        assertEquals(SteerScope.SESSION, d.messages().steerScope());
        assertFalse(d.channels().anyPlatformEnabled());
    }

    @Test
    void exampleFromConfigMd_parsesWithItsVariablesSet() throws Exception {
        LanewayConfig config = parse(resource("config-md-example.yaml"), Map.of(
                "TELEGRAM_BOT_TOKEN", "tg", "DISCORD_BOT_TOKEN", "dc", "SLACK_BOT_TOKEN", "xoxb", "SLACK_APP_TOKEN", "xapp"));
        OpenAiSettings assistant = assertInstanceOf(OpenAiSettings.class, config.agents().defaultAgentConfig());
        assertEquals("https://api.openai.com/v1", assistant.baseUrl());
        assertEquals("gpt-4o-mini", assistant.model());
        assertTrue(assistant.apiKey().isEmpty(), "OPENAI_API_KEY unset, default empty");
        assertEquals("You are a helpful assistant.", assistant.systemPrompt());
        assertEquals(Map.of("discord", QueueOverride.mode(QueueMode.COLLECT),
                        "telegram", new QueueOverride(QueueMode.FOLLOWUP, Duration.ofMillis(500), null, null)),
                config.messages().queue().byChannel());
        assertEquals(Duration.ofMillis(10_000), config.messages().queue().maxWait());
        assertEquals("tg", config.channels().telegram().token().value());
        assertEquals("xapp", config.channels().slack().appToken().value());
        assertTrue(config.channels().console().enabled(), "explicitly enabled in the example");
        assertFalse(config.channels().anyPlatformEnabled());
    }

    @Test
    void byChannel_acceptsABareModeOrAnObject() throws Exception {
        LanewayConfig config = parse("""
                messages:
                  queue:
                    byChannel:
                      discord: steer
                      telegram: { mode: followup, debounceMs: 2s, cap: 5, drop: new }
                      slack: { cap: 3 }
                """);
        assertEquals(Map.of(
                "discord", QueueOverride.mode(QueueMode.STEER),
                "telegram", new QueueOverride(QueueMode.FOLLOWUP, Duration.ofSeconds(2), 5, DropPolicy.NEW),
                "slack", new QueueOverride(null, null, 3, null)), config.messages().queue().byChannel());
    }

    @Test
    void durations_acceptMillisecondNumbersAndUnitStrings() throws Exception {
        LanewayConfig config = parse("""
                gateway: { shutdownGraceMs: 1m30s }
                lanes: { warnAfterMs: 1500 }
                messages:
                  queue: { debounceMs: 1.5s, maxWaitMs: 0, ttl: 2h }
                  inbound: { debounceMs: "250ms", maxWaitMs: 2m, byChannel: { telegram: 800, slack: 1s } }
                """);
        assertEquals(Duration.ofSeconds(90), config.gateway().shutdownGrace());
        assertEquals(Duration.ofMillis(1500), config.lanes().warnAfter());
        assertEquals(Duration.ofMillis(1500), config.messages().queue().debounce());
        assertEquals(Duration.ZERO, config.messages().queue().maxWait(), "0 = no bound");
        assertEquals(Duration.ofHours(2), config.messages().queue().ttl());
        assertEquals(Duration.ofMillis(250), config.messages().inbound().debounce());
        assertEquals(Duration.ofMinutes(2), config.messages().inbound().maxWait());
        assertEquals(Map.of("telegram", Duration.ofMillis(800), "slack", Duration.ofSeconds(1)),
                config.messages().inbound().byChannel());
    }

    @Test
    void modeAndDropAliases_areAcceptedAsQueueAcceptsThem() throws Exception {
        LanewayConfig config = parse("""
                messages:
                  queue:
                    mode: Coalesce
                    drop: oldest
                    byChannel: { discord: steer+backlog, telegram: follow-up, slack: { mode: abort, drop: summary } }
                """);
        assertEquals(QueueMode.COLLECT, config.messages().queue().mode());
        assertEquals(DropPolicy.OLD, config.messages().queue().drop());
        Map<String, QueueOverride> byChannel = config.messages().queue().byChannel();
        assertEquals(QueueMode.STEER_BACKLOG, byChannel.get("discord").mode());
        assertEquals(QueueMode.FOLLOWUP, byChannel.get("telegram").mode());
        assertEquals(new QueueOverride(QueueMode.INTERRUPT, null, null, DropPolicy.SUMMARIZE), byChannel.get("slack"));
    }

    @Test
    void environmentVariables_withDefaultsEscapesAndTypedValues() throws Exception {
        LanewayConfig config = parse("""
                gateway:
                  dataDir: ${DATA:-/var/lib/laneway}
                  http: { port: "${PORT:-9000}", enabled: "${HTTP_ON:-false}", bind: "${BIND:-0.0.0.0}" }
                agents:
                  list:
                    assistant:
                      provider: openai
                      model: ${MODEL}
                      apiKey: ${OPENAI_API_KEY:-}
                      systemPrompt: "cost is $${PRICE} for ${WHO:-everyone}"
                """, Map.of("MODEL", "llama3", "BIND", "10.0.0.1", "WHO", ""));
        assertEquals(Path.of("/var/lib/laneway"), config.gateway().dataDir());
        assertEquals(new GatewayConfig.Http(false, "10.0.0.1", 9000), config.gateway().http());
        OpenAiSettings agent = (OpenAiSettings) config.agents().defaultAgentConfig();
        assertEquals("llama3", agent.model());
        assertTrue(agent.apiKey().isEmpty());
        assertEquals("cost is ${PRICE} for everyone", agent.systemPrompt(), "empty variable takes the default, as in a shell");
    }

    @Test
    void consoleIsOnByDefaultOnlyWhenNoOtherChannelIsEnabled() throws Exception {
        LanewayConfig telegramOnly = parse("channels: { telegram: { enabled: true, token: abc } }");
        assertFalse(telegramOnly.channels().console().enabled());
        LanewayConfig both = parse("channels: { telegram: { enabled: true, token: abc }, console: { enabled: true } }");
        assertTrue(both.channels().console().enabled());
        LanewayConfig none = parse("channels: { console: { enabled: false } }");
        assertFalse(none.channels().console().enabled());
    }

    @Test
    void channels_readEveryKey() throws Exception {
        ChannelsConfig channels = parse("""
                channels:
                  telegram: { enabled: true, token: " t1 ", apiUrl: "http://localhost:8081", allowFrom: [12345, "@bob"], groups: { requireMention: false } }
                  discord: { enabled: true, token: d1, apiUrl: "http://localhost:9/api", gatewayUrl: "ws://localhost:9/gw", guilds: { requireMention: false } }
                  slack: { enabled: true, botToken: xoxb, appToken: xapp, apiUrl: "http://localhost:7/api/", allowFrom: [U1], channels: { requireMention: false } }
                """).channels();
        assertEquals(new ChannelsConfig.Telegram(true, new Secret("t1"), URI.create("http://localhost:8081"),
                List.of("12345", "@bob"), false), channels.telegram());
        assertEquals(new ChannelsConfig.Discord(true, new Secret("d1"), URI.create("http://localhost:9/api"),
                URI.create("ws://localhost:9/gw"), List.of(), false), channels.discord());
        assertEquals(new ChannelsConfig.Slack(true, new Secret("xoxb"), new Secret("xapp"),
                URI.create("http://localhost:7/api/"), List.of("U1"), false), channels.slack());
    }

    @Test
    void lanes_keepDefaultCapsAndAddNamedLanes() throws Exception {
        LanesConfig lanes = parse("lanes: { subagent: { maxConcurrent: 2 }, batch: { maxConcurrent: 3 }, slow: {} }").lanes();
        assertEquals(Map.of("subagent", 2, "cron", 1, "fallback", 4, "batch", 3, "slow", 1), lanes.caps());
    }

    @Test
    void commandsAllowFrom_keepsNumericIdsAsStrings() throws Exception {
        CommandsConfig commands = parse("commands: { allowFrom: { telegram: [123456789, 42], discord: ['9001'] } }").commands();
        assertEquals(Map.of("telegram", List.of("123456789", "42"), "discord", List.of("9001")), commands.allowFrom());
    }

    @Test
    void agents_runTimeout_defaultsToFiveMinutes_andIsSetPerAgent() throws Exception {
        AgentsConfig agents = parse("""
                agents:
                  list:
                    assistant: { provider: echo }
                    gpt: { provider: openai, model: m, runTimeoutMs: 90s }
                    shell: { provider: command, command: [x], runTimeoutMs: 1500 }
                """).agents();
        assertEquals(Duration.ofMinutes(5), agents.list().get("assistant").runTimeout());
        assertEquals(Duration.ofSeconds(90), agents.list().get("gpt").runTimeout());
        assertEquals(Duration.ofMillis(1500), agents.list().get("shell").runTimeout());
    }

    @Test
    void agents_everyProviderWithItsDefaults() throws Exception {
        AgentsConfig agents = parse("""
                agents:
                  defaults: { agent: shell, maxConcurrent: 2 }
                  list:
                    echo: { provider: echo, delayMs: 1s }
                    gpt: { provider: OpenAI, model: gpt-4o, tools: [current_time], temperature: 0.2, maxTokens: 512 }
                    shell: { provider: command, command: [my-agent, --json] }
                """).agents();
        assertEquals(2, agents.maxConcurrent());
        assertEquals("shell", agents.defaultAgent());
        assertEquals(new EchoSettings("echo", Duration.ofSeconds(1)), agents.list().get("echo"));
        assertEquals(new OpenAiSettings("gpt", OpenAiSettings.DEFAULT_BASE_URL, "", "gpt-4o", "", true,
                Duration.ofMinutes(2), 40, 0.2, 512, 2, List.of("current_time")), agents.list().get("gpt"));
        assertEquals(new CommandSettings("shell", List.of("my-agent", "--json"), Duration.ofMinutes(1)),
                agents.list().get("shell"));
    }

    @Test
    void singleAgentNotNamedAssistant_isTheDefault() throws Exception {
        assertEquals("bot", parse("agents: { list: { bot: { provider: echo } } }").agents().defaultAgent());
    }

    @Test
    void emptyListWithANamedDefault_getsAnEchoAgentOfThatName() throws Exception {
        AgentsConfig agents = parse("agents: { defaults: { agent: helper } }").agents();
        assertEquals(Map.of("helper", EchoSettings.defaults("helper")), agents.list());
    }

    @Test
    void load_readsAFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("laneway.yaml");
        Files.writeString(file, "messages: { queue: { cap: 7 } }\n");
        assertEquals(7, ConfigLoader.load(file, Map.of()).messages().queue().cap());
    }

    @Test
    void load_namesTheGivenPathInProblems(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("custom.yaml");
        Files.writeString(file, "messages: { queue: { cap: 0 } }\n");
        ConfigException e = org.junit.jupiter.api.Assertions.assertThrows(ConfigException.class,
                () -> ConfigLoader.load(file, Map.of()));
        assertTrue(e.getMessage().startsWith(file + ": messages.queue.cap: "), e.getMessage());
    }

    static String resource(String name) throws IOException {
        try (InputStream in = ConfigLoaderTest.class.getClassLoader().getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}

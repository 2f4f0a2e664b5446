package dev.laneway.config;

import static dev.laneway.config.Configs.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigPrinterTest {

    private static final Map<String, String> SECRETS = Map.of(
            "TELEGRAM_BOT_TOKEN", "tg-SECRET-1", "DISCORD_BOT_TOKEN", "dc-SECRET-2",
            "SLACK_BOT_TOKEN", "xoxb-SECRET-3", "SLACK_APP_TOKEN", "xapp-SECRET-4", "OPENAI_API_KEY", "sk-SECRET-5");

    @Test
    void effectiveYaml_masksEverySecret() throws Exception {
        LanewayConfig config = parse(ConfigLoaderTest.resource("config-md-example.yaml"), SECRETS);
        String yaml = ConfigPrinter.effectiveYaml(config);
        assertFalse(yaml.contains("SECRET"), yaml);
        assertTrue(yaml.contains("token: '***'") || yaml.contains("token: \"***\""), yaml);
        assertTrue(yaml.contains("apiKey: "), yaml);
    }

    @Test
    void recordsHoldingSecrets_doNotShowThemInToString() throws Exception {
        LanewayConfig config = parse(ConfigLoaderTest.resource("config-md-example.yaml"), SECRETS);
        assertFalse(config.toString().contains("SECRET"), config.toString());
    }

    @Test
    void effectiveYaml_fillsInDefaults() {
        String yaml = ConfigPrinter.effectiveYaml(LanewayConfig.defaults());
        assertTrue(yaml.contains("maxPendingRuns: 1000"), yaml);
        assertTrue(yaml.contains("mode: collect"), yaml);
        assertTrue(yaml.contains("dmScope: per-peer"), yaml);
        assertTrue(yaml.contains("provider: echo"), yaml);
    }

    @Test
    void effectiveYaml_loadsBackIntoTheSameConfig() throws Exception {
        LanewayConfig config = parse("""
                lanes: { batch: { maxConcurrent: 3 } }
                agents:
                  list:
                    assistant: { provider: openai, model: m, temperature: 0.5, tools: [current_time] }
                    shell: { provider: command, command: [a, "b c"], timeoutMs: 5s }
                messages:
                  queue: { maxWaitMs: 0, byChannel: { discord: steer, telegram: { debounceMs: 500, drop: old } } }
                  inbound: { byChannel: { slack: 300 } }
                commands: { allowFrom: { telegram: [42, "007"] } }
                channels: { discord: { enabled: true, token: abc, allowFrom: [x] } }
                """);
        LanewayConfig reloaded = parse(ConfigPrinter.effectiveYaml(config));
        assertEquals(ConfigPrinter.effectiveYaml(config), ConfigPrinter.effectiveYaml(reloaded));
        assertEquals(config.messages(), reloaded.messages());
        assertEquals(config.agents(), reloaded.agents());
        assertEquals(config.lanes(), reloaded.lanes());
        assertEquals(config.commands(), reloaded.commands());
        assertEquals(LanewayConfig.defaults(), parse(ConfigPrinter.effectiveYaml(LanewayConfig.defaults())));
    }
}

package dev.laneway.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigAdviceTest {

    @Test
    void aChannelWithATokenButNotEnabled_isPointedOut() throws ConfigException {
        LanewayConfig config = Configs.parse("""
                channels:
                  telegram: { token: "123:abc" }
                  slack: { appToken: "xapp-1" }
                """);
        assertEquals(List.of(
                "channels.telegram has a token but is not enabled, so Telegram stays off"
                        + " (add \"enabled: true\" under channels.telegram)",
                "channels.slack has a token but is not enabled, so Slack stays off"
                        + " (add \"enabled: true\" under channels.slack)"),
                ConfigAdvice.warnings(config));
    }

    @Test
    void enabledChannels_andDisabledOnesWithoutTokens_giveNoWarning() throws ConfigException {
        LanewayConfig config = Configs.parse("""
                channels:
                  telegram: { enabled: true, token: "${TOKEN}" }
                  discord: { enabled: false }
                """, Map.of("TOKEN", "123:abc"));
        assertEquals(List.of(), ConfigAdvice.warnings(config));
        assertEquals(List.of(), ConfigAdvice.warnings(LanewayConfig.defaults()));
    }

    @Test
    void theWarningNeverContainsTheToken() throws ConfigException {
        LanewayConfig config = Configs.parse("channels: { discord: { token: \"very-secret-discord-token\" } }");
        assertEquals(1, ConfigAdvice.warnings(config).size());
        assertFalse(ConfigAdvice.warnings(config).get(0).contains("very-secret"));
    }
}

package dev.laneway.config;

import static dev.laneway.config.Configs.onlyProblem;
import static dev.laneway.config.Configs.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code channels.telegram.mode} and {@code webhook:} (docs/configuration.md): polling by default. */
class ConfigTelegramWebhookTest {

    private static final String ON = "channels: { telegram: { enabled: true, token: t1, ";

    @Test
    void pollingIsTheDefault() throws Exception {
        assertNull(parse(ON + "} }").channels().telegram().webhook());
        assertNull(parse(ON + "mode: polling } }").channels().telegram().webhook());
    }

    @Test
    void webhookReadsEveryKey_withDefaultsForListenAndPath() throws Exception {
        TelegramWebhook full = parse(ON + """
                mode: webhook, webhook: { url: "https://bot.example.com/hook", listen: "127.0.0.1:9443", path: /hook, secretToken: "${S}" } } }""",
                Map.of("S", "abc_DEF-123")).channels().telegram().webhook();
        assertEquals(new TelegramWebhook(URI.create("https://bot.example.com/hook"), "127.0.0.1", 9443, "/hook",
                new Secret("abc_DEF-123")), full);
        TelegramWebhook defaults = parse(ON + """
                mode: webhook, webhook: { url: "https://bot.example.com/telegram", secretToken: s } } }""")
                .channels().telegram().webhook();
        assertEquals("0.0.0.0", defaults.listenHost());
        assertEquals(8443, defaults.listenPort());
        assertEquals("/telegram", defaults.path());
    }

    @Test
    void theSecretIsMaskedInTheEffectiveConfig() throws Exception {
        String yaml = ConfigPrinter.effectiveYaml(parse(ON + """
                mode: webhook, webhook: { url: "https://b.example.com/t", secretToken: TopSecret99 } } }"""));
        assertFalse(yaml.contains("TopSecret99"), yaml);
        assertTrue(yaml.contains("mode: webhook"), yaml);
    }

    @Test
    void everyProblemIsNamed() {
        assertTrue(onlyProblem(ON + "mode: push } }").contains("channels.telegram.mode: must be polling or webhook, got push"),
                onlyProblem(ON + "mode: push } }"));
        String noSecret = onlyProblem(ON + "mode: webhook, webhook: { url: \"https://b.example.com/t\" } } }");
        assertTrue(noSecret.contains("channels.telegram.webhook.secretToken") && noSecret.contains("TELEGRAM_WEBHOOK_SECRET"),
                noSecret);
        String noUrl = onlyProblem(ON + "mode: webhook, webhook: { secretToken: s } } }");
        assertTrue(noUrl.contains("channels.telegram.webhook.url"), noUrl);
        String badSecret = onlyProblem(ON + "mode: webhook, webhook: { url: \"https://b.example.com/t\", secretToken: \"has space\" } } }");
        assertTrue(badSecret.contains("channels.telegram.webhook.secretToken: must be 1-256 characters"), badSecret);
        assertFalse(badSecret.contains("has space"), "the secret itself is never printed: " + badSecret);
        String badListen = onlyProblem(ON + "mode: webhook, webhook: { url: \"https://b.example.com/t\", secretToken: s, listen: nowhere } } }");
        assertTrue(badListen.contains("channels.telegram.webhook.listen: must be host:port"), badListen);
        String badPath = onlyProblem(ON + "mode: webhook, webhook: { url: \"https://b.example.com/t\", secretToken: s, path: hook } } }");
        assertTrue(badPath.contains("channels.telegram.webhook.path: must start with /"), badPath);
        String stray = onlyProblem(ON + "webhook: { url: \"https://b.example.com/t\" } } }");
        assertTrue(stray.contains("channels.telegram.webhook: is used only with mode: webhook"), stray);
    }
}

package dev.laneway.config;

import static dev.laneway.config.Configs.onlyProblem;
import static dev.laneway.config.Configs.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** URL-valued keys: credentials inside a URL are never printed, and the Telegram Bot API URL is a bare server. */
class ConfigUrlsTest {

    @Test
    void configShow_masksCredentialsInEveryUrl() throws Exception {
        LanewayConfig config = parse("""
                agents:
                  list:
                    assistant: { provider: openai, model: m, baseUrl: "https://bob:sk-SECRET-1@llm.example/v1" }
                channels:
                  discord: { apiUrl: "https://u:SECRET-3@discord.example/api?token=SECRET-4", gatewayUrl: "wss://SECRET-5@gw.example" }
                  slack: { apiUrl: "https://slack.example/api/?key=SECRET-6" }
                """);
        String yaml = ConfigPrinter.effectiveYaml(config);
        assertFalse(yaml.contains("SECRET"), yaml);
        assertTrue(yaml.contains("baseUrl: https://***@llm.example/v1"), yaml);
        assertTrue(yaml.contains("apiUrl: https://***@discord.example/api?token=***"), yaml);
        assertTrue(yaml.contains("gatewayUrl: wss://***@gw.example"), yaml);
        assertTrue(yaml.contains("apiUrl: https://slack.example/api/?key=***"), yaml);
    }

    @Test
    void configShow_leavesUrlsWithoutCredentialsAsTheyAre() {
        String yaml = ConfigPrinter.effectiveYaml(LanewayConfig.defaults());
        assertTrue(yaml.contains("apiUrl: https://api.telegram.org"), yaml);
        assertTrue(yaml.contains("apiUrl: https://discord.com/api/v10"), yaml);
    }

    @Test
    void problemQuotingAUrl_masksItsCredentials() {
        String problem = onlyProblem("""
                agents:
                  list:
                    assistant: { provider: openai, model: m, baseUrl: "https://bob:sk-SECRET-1@llm.example/v1?key=SECRET-2" }
                """);
        assertEquals("laneway.yaml: agents.list.assistant.baseUrl: must be an absolute http or https URL without"
                + " ?query or #fragment (like https://api.openai.com/v1), got \"https://***@llm.example/v1?key=***\""
                + " (line 3, column 55)", problem);
    }

    @Test
    void problemQuotingAUrl_masksCredentialsLongerThanTheQuotedLength() {
        String password = "SECRET-" + "p".repeat(100);
        String problem = onlyProblem("channels:\n  slack:\n    apiUrl: \"slack.example:" + password + "@x\"\n");
        assertFalse(problem.contains("SECRET"), problem);
        assertTrue(problem.contains("got \"***@x\""), problem);
    }

    @Test
    void problemQuotingAnUnparsableUrl_masksEverythingUpToTheHost() {
        String problem = onlyProblem("channels:\n  discord:\n    apiUrl: \"https://bob:pa/ss SECRET@discord.example\"\n");
        assertFalse(problem.contains("SECRET"), problem);
        assertTrue(problem.contains("got \"https://***@discord.example\""), problem);
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://api.telegram.org/bot", "http://localhost:8081/bot123/getMe", "https://api.telegram.org?x=1",
            "https://api.telegram.org/#frag", "https://user:pw@api.telegram.org"})
    void telegramApiUrlWithMoreThanTheServer_isAProblem(String url) {
        String problem = onlyProblem("channels:\n  telegram:\n    apiUrl: \"" + url + "\"\n");
        assertTrue(problem.startsWith("laneway.yaml: channels.telegram.apiUrl: must be scheme://host[:port] without user"
                + " info, path, query or fragment (the SDK builds /bot<token>/<method> from the root), got \""), problem);
        assertTrue(problem.endsWith("\" (line 3, column 13)"), problem);
        assertFalse(problem.contains("pw"), problem);
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://api.telegram.org", "https://api.telegram.org/", "http://127.0.0.1:8081"})
    void telegramApiUrlOfABareServer_isAccepted(String url) throws Exception {
        assertEquals(URI.create(url), parse("channels:\n  telegram:\n    apiUrl: \"" + url + "\"\n").channels().telegram().apiUrl());
    }

    @Test
    void telegramRecord_refusesAnApiUrlWithAPath() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ChannelsConfig.Telegram(
                true, new Secret("t"), URI.create("https://api.telegram.org/custom"), List.of(), true));
        assertTrue(e.getMessage().startsWith("channels.telegram.apiUrl: must be scheme://host[:port]"), e.getMessage());
    }

    @Test
    void variablesInAUrl_areMaskedOnceSubstituted() throws Exception {
        LanewayConfig config = parse("agents: { list: { a: { provider: openai, model: m, baseUrl: \"https://${CRED}@llm.example/v1\" } } }",
                Map.of("CRED", "bob:SECRET"));
        assertFalse(ConfigPrinter.effectiveYaml(config).contains("SECRET"));
    }
}

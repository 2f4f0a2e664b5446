package dev.laneway.channels.slack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.LiveCheck;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code laneway doctor}'s and {@code init}'s Slack token checks against the fake Web API (docs/configuration.md §18.2). */
class SlackTokenCheckTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    void tokensSlackAccepts_pass_andEachIsSentToItsMethod() throws Exception {
        try (FakeSlackApi api = new FakeSlackApi()) {
            LiveCheck bot = SlackTokenCheck.botToken(api.apiUrl(), "xoxb-bot", TIMEOUT);
            LiveCheck app = SlackTokenCheck.appToken(api.apiUrl(), "xapp-app", TIMEOUT);
            assertTrue(bot.passed(), bot.toString());
            assertTrue(bot.detail().startsWith("accepted: the bot user " + FakeSlackApi.BOT_USER), bot.detail());
            assertTrue(app.passed(), app.toString());
            assertEquals("xoxb-bot", api.calls("auth.test").getFirst().token());
            assertEquals("xapp-app", api.calls("apps.connections.open").getFirst().token());
        }
    }

    @Test
    void aBotTokenSlackRefuses_fails_withSlacksError_andTheFix() throws Exception {
        try (FakeSlackApi api = new FakeSlackApi()) {
            api.refuseAuth("invalid_auth");
            LiveCheck bot = SlackTokenCheck.botToken(api.apiUrl(), "xoxb-wrong", TIMEOUT);
            assertFalse(bot.passed());
            assertEquals("Slack refused it (auth.test: invalid_auth)", bot.detail());
            assertTrue(bot.fix().contains("SLACK_BOT_TOKEN"), bot.fix());
            assertFalse(bot.toString().contains("xoxb-wrong"));
        }
    }

    @Test
    void anAppTokenSlackRefuses_fails_sayingWhichTokenIsNeeded() throws Exception {
        try (FakeSlackApi api = new FakeSlackApi()) {
            api.refuseAppToken("not_allowed_token_type");
            LiveCheck app = SlackTokenCheck.appToken(api.apiUrl(), "xoxb-given-as-app-token", TIMEOUT);
            assertFalse(app.passed());
            assertEquals("Slack refused it (apps.connections.open: not_allowed_token_type)", app.detail());
            assertTrue(app.fix().contains("connections:write") && app.fix().contains("SLACK_APP_TOKEN"), app.fix());
        }
    }

    @Test
    void anEmptyToken_failsWithoutACall() throws Exception {
        try (FakeSlackApi api = new FakeSlackApi()) {
            assertEquals("no token", SlackTokenCheck.botToken(api.apiUrl(), " ", TIMEOUT).detail());
            assertTrue(api.calls().isEmpty());
        }
    }
}

package dev.laneway.channels.slack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.config.ChannelsConfig;
import dev.laneway.config.Secret;
import dev.laneway.core.Route;
import dev.laneway.core.channel.ChannelAdapter;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

class SlackChannelConfigTest {

    private static ChannelsConfig.Slack config(String bot, String app) {
        return new ChannelsConfig.Slack(true, new Secret(bot), new Secret(app), URI.create("http://127.0.0.1:9/api/"),
                List.of(), true);
    }

    private static String refusal(String bot, String app) {
        return assertThrows(IllegalArgumentException.class, () -> SlackChannel.create(config(bot, app))).getMessage();
    }

    @Test
    void missingOrSwappedTokens_areRefusedNamingTheSettingAndTheVariable() {
        assertTrue(refusal("", "xapp-1").contains("channels.slack.botToken is empty: set SLACK_BOT_TOKEN"));
        assertTrue(refusal("xoxb-1", "").contains("channels.slack.appToken is empty: set SLACK_APP_TOKEN"));
        assertTrue(refusal("xapp-1", "xapp-2").contains("botToken holds an app-level token"));
        assertTrue(refusal("xoxb-1", "xoxb-2").contains("appToken holds a bot token"));
    }

    @Test
    void refusalsNeverShowTheToken() {
        assertFalse(refusal("xapp-secret-value", "xapp-2").contains("secret-value"));
    }

    @Test
    void theChannelIsNamedSlack_withSlackSizedMessages_andStopsIdempotentlyBeforeStarting() {
        ChannelAdapter channel = SlackChannel.create(config("xoxb-1", "xapp-1"));
        assertEquals("slack", channel.name());
        assertEquals(4000, channel.capabilities().maxTextLength());
        assertTrue(channel.capabilities().threads());
        assertFalse(channel.connected());
        assertThrows(IllegalStateException.class,
                () -> channel.send(new Route("slack", "default", "C1", null, null), "hi"));
        channel.stop();
        channel.stop();
        assertThrows(IllegalStateException.class, () -> channel.start(message -> { }));
    }

    @Test
    void aRefusedBotToken_failsStartWithSlacksErrorCode() throws Exception {
        try (FakeSlackApi api = new FakeSlackApi()) {
            api.refuseAuth("invalid_auth");
            ChannelAdapter channel = SlackChannel.create(new ChannelsConfig.Slack(true, new Secret("xoxb-bad"),
                    new Secret("xapp-1"), api.apiUrl(), List.of(), true));
            Exception error = assertThrows(IllegalStateException.class, () -> channel.start(message -> { }));
            assertEquals("Slack auth.test with channels.slack.botToken failed: invalid_auth", error.getMessage());
            assertFalse(channel.connected());
        }
    }
}

package dev.laneway.channels.discord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.config.ChannelsConfig;
import dev.laneway.config.Secret;
import dev.laneway.core.Route;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.testing.ManualTime;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Construction, capabilities and start-up errors: each names what was wrong, none shows the token. */
class DiscordChannelConfigTest {

    private static ChannelsConfig.Discord config(String token, String api, String gateway) {
        return new ChannelsConfig.Discord(true, new Secret(token), URI.create(api), URI.create(gateway), List.of(), true);
    }

    @Test
    void create_givesTheDiscordChannel_withDiscordsLimits() {
        ChannelAdapter channel = DiscordChannel.create(config("secret-token", "https://discord.com/api/v10", "wss://gateway.discord.gg"));

        assertEquals("discord", channel.name());
        assertEquals(2000, channel.capabilities().maxTextLength());
        assertTrue(channel.capabilities().typing());
        assertEquals(Duration.ofSeconds(8), channel.capabilities().typingRefresh());
        assertTrue(channel.capabilities().threads());
        assertFalse(channel.connected(), "not connected before start");
        assertFalse(channel.toString().contains("secret-token"));
        channel.stop();
    }

    @Test
    void anEmptyToken_isRejected_namingTheSetting() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DiscordChannel.create(config("", "https://discord.com/api/v10", "wss://gateway.discord.gg")));
        assertTrue(e.getMessage().startsWith("channels.discord.token is empty"), e.getMessage());
    }

    @Test
    void urlsWithTheWrongScheme_areRejected_namingTheSetting() {
        IllegalArgumentException api = assertThrows(IllegalArgumentException.class,
                () -> DiscordChannel.create(config("t", "ftp://example.com", "wss://gateway.discord.gg")));
        assertEquals("channels.discord.apiUrl must be an http(s) URL, got ftp://example.com", api.getMessage());
        IllegalArgumentException gateway = assertThrows(IllegalArgumentException.class,
                () -> DiscordChannel.create(config("t", "https://discord.com/api/v10", "https://gateway.discord.gg")));
        assertEquals("channels.discord.gatewayUrl must be a ws:// or wss:// URL, got https://gateway.discord.gg",
                gateway.getMessage());
    }

    @Test
    void sendingBeforeStart_failsClearly() {
        ChannelAdapter channel = DiscordChannel.create(config("t", "https://discord.com/api/v10", "wss://gateway.discord.gg"));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> channel.send(new Route("discord", "default", "1", null, null), "hi"));
        assertEquals("discord channel is not started", e.getMessage());
    }

    @Test
    void aTokenDiscordRejects_failsStart_namingTheSetting_withoutShowingTheToken() throws Exception {
        try (FakeDiscordRest rest = new FakeDiscordRest()) {
            rest.rejectToken();
            String token = "wrong-token-value";
            ManualTime time = new ManualTime();
            DiscordChannel channel = new DiscordChannel(config(token, rest.baseUrl(), "ws://127.0.0.1:9"), time, time);

            IllegalStateException e = assertThrows(IllegalStateException.class, () -> channel.start(message -> { }));
            assertTrue(e.getMessage().startsWith("Discord rejected the bot token (channels.discord.token)"), e.getMessage());
            assertFalse(e.getMessage().contains(token));
            assertEquals(1, rest.requests(r -> r.is("GET", "users/@me")).size());
            channel.stop();
        }
    }
}

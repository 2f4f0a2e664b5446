package dev.laneway.channels.discord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.LiveCheck;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code laneway doctor}'s and {@code init}'s Discord token check against the fake REST API (docs/configuration.md §18.2). */
class DiscordTokenCheckTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final String TOKEN = "discord-secret-token";

    @Test
    void aTokenDiscordAccepts_passes_namingTheBot() throws Exception {
        try (FakeDiscordRest rest = new FakeDiscordRest()) {
            LiveCheck check = DiscordTokenCheck.check(URI.create(rest.baseUrl()), TOKEN, TIMEOUT);
            assertTrue(check.passed(), check.toString());
            assertEquals("accepted: the bot laneway (id 1000)", check.detail());
            assertEquals(1, rest.requests(r -> r.is("GET", "users/@me")).size());
        }
    }

    @Test
    void aTokenDiscordRefuses_fails_sayingWhatToDo_withoutTheToken() throws Exception {
        try (FakeDiscordRest rest = new FakeDiscordRest()) {
            rest.rejectToken();
            LiveCheck check = DiscordTokenCheck.check(URI.create(rest.baseUrl()), TOKEN, TIMEOUT);
            assertFalse(check.passed());
            assertEquals("Discord refused the token (401 401: Unauthorized)", check.detail());
            assertTrue(check.fix().contains("DISCORD_BOT_TOKEN"), check.fix());
            assertFalse(check.toString().contains(TOKEN));
        }
    }

    @Test
    void anApiNobodyAnswers_fails_namingTheUrl() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        LiveCheck check = DiscordTokenCheck.check(URI.create("http://127.0.0.1:" + port + "/api/v10"), TOKEN, TIMEOUT);
        assertFalse(check.passed());
        assertEquals("cannot reach http://127.0.0.1:" + port + "/api/v10 (connection refused)", check.detail());
        assertTrue(check.fix().contains("channels.discord.apiUrl"), check.fix());
    }
}

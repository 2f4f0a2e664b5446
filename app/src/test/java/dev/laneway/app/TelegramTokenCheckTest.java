package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.channels.telegram.TelegramTokenCheck;
import dev.laneway.core.LiveCheck;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The Telegram token check ({@code getMe}) against the Bot API fake (docs/configuration.md §18.2). */
class TelegramTokenCheckTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    void aTokenTheBotApiAccepts_passes_namingTheBot() throws Exception {
        try (FakeTelegramServer telegram = new FakeTelegramServer()) {
            LiveCheck check = TelegramTokenCheck.check(URI.create(telegram.url()), FakeTelegramServer.TOKEN, TIMEOUT);
            assertEquals(LiveCheck.passed("accepted: the bot @" + FakeTelegramServer.BOT_USERNAME), check);
        }
    }

    @Test
    void aTokenTheBotApiRefuses_fails_withoutQuotingIt() throws Exception {
        try (FakeTelegramServer telegram = new FakeTelegramServer()) {
            LiveCheck check = TelegramTokenCheck.check(URI.create(telegram.url()), "1:refused-token", TIMEOUT);
            assertEquals("Telegram refused the token (401 Unauthorized)", check.detail());
            assertTrue(check.fix().contains("TELEGRAM_BOT_TOKEN"), check.fix());
            assertFalse(check.toString().contains("refused-token"));
        }
    }

    @Test
    void aBotApiThatIsDown_fails_namingTheUrlButNotTheToken() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        LiveCheck check = TelegramTokenCheck.check(URI.create("http://127.0.0.1:" + port), "1:some-token", TIMEOUT);
        assertFalse(check.passed());
        assertEquals("cannot reach http://127.0.0.1:" + port + " (connection refused)", check.detail());
        assertFalse(check.toString().contains("some-token"), check.toString());
    }
}

package dev.laneway.channels.discord;

import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.laneway.config.ChannelsConfig;
import dev.laneway.config.Secret;
import dev.laneway.core.testing.Await;
import dev.laneway.core.testing.LogCapture;
import dev.laneway.core.testing.ManualTime;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The most common set-up mistake: the Message Content Intent is not switched on in the developer
 * portal, so Discord closes the gateway with 4014. The log must say what to switch on.
 */
class DiscordGatewayRefusalTest {

    @Test
    void disallowedIntents_areReported_withWhatToEnable() throws Exception {
        LogCapture logged = LogCapture.of(DiscordListener.class);
        FakeDiscordGateway ws = new FakeDiscordGateway();
        ws.refuseIdentifyWith(4014);
        ws.startAndAwait();
        try (FakeDiscordRest rest = new FakeDiscordRest()) {
            ManualTime time = new ManualTime();
            DiscordChannel channel = new DiscordChannel(new ChannelsConfig.Discord(true, new Secret(DiscordRig.TOKEN),
                    URI.create(rest.baseUrl()), URI.create(ws.url()), List.of(), true), time, time);
            channel.start(message -> { });
            try {
                Await.until("the refusal to be logged", () -> logged.lines().stream()
                        .anyMatch(line -> line.message().contains("enable the Message Content Intent")));
                assertFalse(channel.connected());
                assertFalse(logged.lines().stream().anyMatch(line -> line.mentions(DiscordRig.TOKEN)));
            } finally {
                channel.stop();
            }
        } finally {
            logged.close();
            ws.stop(1000);
        }
    }
}

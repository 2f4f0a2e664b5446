package dev.laneway.channels.discord;

import static org.junit.jupiter.api.Assertions.assertFalse;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.laneway.config.ChannelsConfig;
import dev.laneway.config.Secret;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The most common set-up mistake: the Message Content Intent is not switched on in the developer
 * portal, so Discord closes the gateway with 4014. The log must say what to switch on.
 */
class DiscordGatewayRefusalTest {

    @Test
    void disallowedIntents_areReported_withWhatToEnable() throws Exception {
        Logger logger = (Logger) LoggerFactory.getLogger(DiscordListener.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        FakeDiscordGateway ws = new FakeDiscordGateway();
        ws.refuseIdentifyWith(4014);
        ws.startAndAwait();
        try (FakeDiscordRest rest = new FakeDiscordRest()) {
            SteppedTime time = new SteppedTime();
            DiscordChannel channel = new DiscordChannel(new ChannelsConfig.Discord(true, new Secret(DiscordRig.TOKEN),
                    URI.create(rest.baseUrl()), URI.create(ws.url()), List.of(), true), time, time);
            channel.start(message -> { });
            try {
                Await.until("the refusal to be logged", () -> logged.list.stream()
                        .anyMatch(e -> e.getFormattedMessage().contains("enable the Message Content Intent")));
                assertFalse(channel.connected());
                assertFalse(logged.list.stream().anyMatch(e -> e.getFormattedMessage().contains(DiscordRig.TOKEN)));
            } finally {
                channel.stop();
            }
        } finally {
            logger.detachAppender(logged);
            ws.stop(1000);
        }
    }
}

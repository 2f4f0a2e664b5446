package dev.laneway.config;

import static dev.laneway.config.Configs.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.channel.Streaming;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code channels.<platform>.streaming} and {@code streamingInterval} (docs/configuration.md §10). */
class StreamingConfigTest {

    @Test
    void defaults_streamOnEveryPlatform() throws Exception {
        ChannelsConfig channels = parse("").channels();
        assertEquals(Streaming.every(Duration.ofSeconds(1)), channels.telegram().streaming());
        assertEquals(Streaming.every(Duration.ofSeconds(1)), channels.discord().streaming());
        assertEquals(Streaming.every(Duration.ofSeconds(2)), channels.slack().streaming());
    }

    @Test
    void onAndOff_andTheInterval_areReadPerChannel() throws Exception {
        ChannelsConfig channels = parse("""
                channels:
                  telegram: { streaming: "off" }
                  discord: { streaming: "on", streamingInterval: 1500ms }
                  slack: { streaming: false, streamingInterval: 3s }
                """).channels();
        assertEquals(new Streaming(false, Duration.ofSeconds(1)), channels.telegram().streaming());
        assertEquals(Streaming.every(Duration.ofMillis(1500)), channels.discord().streaming());
        assertEquals(new Streaming(false, Duration.ofSeconds(3)), channels.slack().streaming());
    }

    @Test
    void aBadValue_namesTheKeyAndWhatIsAllowed() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> parse("channels: { telegram: { streaming: sometimes, streamingInterval: 50ms } }"));
        assertTrue(e.getMessage().contains("channels.telegram.streaming: must be on or off, got"), e.getMessage());
        assertTrue(e.getMessage().contains("channels.telegram.streamingInterval: must be at least 200ms"),
                e.getMessage());
    }

    @Test
    void telegramDrafts_areOnByDefault_andCanBeTurnedOff() throws Exception {
        assertTrue(parse("").channels().telegram().drafts());
        assertEquals(false, parse("channels: { telegram: { drafts: \"off\" } }").channels().telegram().drafts());
        assertEquals(false, parse("channels: { telegram: { drafts: false } }").channels().telegram().drafts());
        ConfigException e = assertThrows(ConfigException.class,
                () -> parse("channels: { telegram: { drafts: maybe } }"));
        assertTrue(e.getMessage().contains("channels.telegram.drafts: must be on or off, got"), e.getMessage());
    }

    @Test
    void slackStreamMethods_areOnByDefault_andCanBeTurnedOff() throws Exception {
        assertTrue(parse("").channels().slack().streamMethods());
        assertEquals(false, parse("channels: { slack: { streamMethods: \"off\" } }").channels().slack().streamMethods());
    }
}

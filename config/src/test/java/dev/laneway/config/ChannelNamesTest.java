package dev.laneway.config;

import static dev.laneway.config.Configs.onlyProblem;
import static dev.laneway.config.Configs.parse;
import static dev.laneway.config.Configs.problems;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueOverride;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every per-channel map takes only channel names; a misspelt one is reported like an unknown key. */
class ChannelNamesTest {

    @Test
    void queueByChannel_withAMisspeltChannel_isAProblemWithDidYouMean() {
        assertEquals("laneway.yaml: messages.queue.byChannel.telgram: unknown channel, did you mean \"telegram\"?"
                        + " (line 4, column 7)",
                onlyProblem("""
                        messages:
                          queue:
                            byChannel:
                              telgram: followup
                        """));
    }

    @Test
    void inboundByChannel_withAnUnknownChannel_listsTheChannels() {
        assertEquals("laneway.yaml: messages.inbound.byChannel.whatsapp: unknown channel (known channels: console,"
                        + " telegram, discord, slack) (line 1, column 37)",
                onlyProblem("messages: { inbound: { byChannel: { whatsapp: 500 } } }"));
    }

    @Test
    void commandsAllowFrom_withAMisspeltChannel_isAProblem() {
        assertEquals("laneway.yaml: commands.allowFrom.Discord: unknown channel, did you mean \"discord\"?"
                        + " (line 1, column 26)",
                onlyProblem("commands: { allowFrom: { Discord: [\"1\"] } }"));
    }

    @Test
    void allThreeMisspellings_areReportedTogether() {
        assertEquals(List.of("messages.queue.byChannel.slak", "messages.inbound.byChannel.telgram",
                        "commands.allowFrom.discrod"),
                problems("""
                        messages:
                          queue: { byChannel: { slak: collect } }
                          inbound: { byChannel: { telgram: 1s } }
                        commands: { allowFrom: { discrod: [1] } }
                        """).stream().map(ConfigProblem::path).toList());
    }

    @Test
    void knownChannelNames_load() throws Exception {
        LanewayConfig config = parse("""
                messages:
                  queue: { byChannel: { telegram: followup } }
                  inbound: { byChannel: { slack: 1s } }
                commands: { allowFrom: { discord: [42] } }
                """);
        assertEquals(Map.of("telegram", QueueOverride.mode(QueueMode.FOLLOWUP)), config.messages().queue().byChannel());
        assertEquals(Map.of("slack", Duration.ofSeconds(1)), config.messages().inbound().byChannel());
        assertEquals(Map.of("discord", List.of("42")), config.commands().allowFrom());
    }
}

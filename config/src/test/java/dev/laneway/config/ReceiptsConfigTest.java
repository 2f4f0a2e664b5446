package dev.laneway.config;

import static dev.laneway.config.Configs.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.channel.ReceiptMode;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code channels.<platform>.receipts} (docs/configuration.md §10, docs/behaviour.md §16.5). */
class ReceiptsConfigTest {

    @Test
    void defaults_areReactionsOnEveryPlatform() throws Exception {
        ChannelsConfig channels = parse("").channels();
        assertEquals(ReceiptMode.REACTIONS, channels.telegram().receipts());
        assertEquals(ReceiptMode.REACTIONS, channels.discord().receipts());
        assertEquals(ReceiptMode.REACTIONS, channels.slack().receipts());
    }

    @Test
    void eachPlatform_readsItsOwn_andAnUnquotedOffIsOff() throws Exception {
        ChannelsConfig channels = parse("""
                channels:
                  telegram: { receipts: notices }
                  discord: { receipts: off }
                  slack: { receipts: "off" }
                """).channels();
        assertEquals(ReceiptMode.NOTICES, channels.telegram().receipts());
        assertEquals(ReceiptMode.OFF, channels.discord().receipts());
        assertEquals(ReceiptMode.OFF, channels.slack().receipts());
    }

    @Test
    void aBadValue_namesTheKeyAndTheWordsAllowed() {
        ConfigException e = assertThrows(ConfigException.class, () -> parse("channels: { slack: { receipts: emoji } }"));
        assertTrue(e.getMessage().contains("channels.slack.receipts: must be one of"), e.getMessage());
        assertTrue(e.getMessage().contains("reactions"), e.getMessage());
    }

    @Test
    void configShow_printsIt() throws Exception {
        LanewayConfig config = parse("channels: { telegram: { receipts: notices } }");
        @SuppressWarnings("unchecked")
        Map<String, Object> telegram = (Map<String, Object>) ChannelPrinter.channels(config.channels()).get("telegram");
        assertEquals("notices", telegram.get("receipts"));
    }
}

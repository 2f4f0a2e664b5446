package dev.laneway.channels.slack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import org.junit.jupiter.api.Test;

class SlashCommandConverterTest {

    private static InboundDraft accepted(Conversion conversion) {
        return assertInstanceOf(Conversion.Accepted.class, conversion).draft();
    }

    @Test
    void commandAndArguments_becomeTheTextAUserWouldType() {
        JsonObject payload = SlackEvents.slashPayload("/queue", "  collect cap:5 ", "U1", "C1");
        InboundDraft draft = accepted(SlashCommandConverter.convert(payload, "env-1"));
        assertEquals("/queue collect cap:5", draft.text());
        assertEquals("C1", draft.chatId());
        assertNull(draft.threadId());
        assertFalse(draft.direct());
        assertTrue(draft.mentionsBot());
        assertEquals("slash:" + payload.get("trigger_id").getAsString(), draft.messageId());
        assertEquals("u1", draft.senderName());
    }

    @Test
    void noArguments_isJustTheCommand_andEvenADmChannelIsNotDirectYet() {
        JsonObject payload = SlackEvents.slashPayload("/status", "", "U1", "D1");
        payload.remove("trigger_id");
        InboundDraft draft = accepted(SlashCommandConverter.convert(payload, "env-2"));
        assertEquals("/status", draft.text());
        assertFalse(draft.direct(), "only the bot's own DM is direct, which the converter cannot tell");
        assertEquals("slash:env-2", draft.messageId());
    }

    @Test
    void queueAndStatus_areAnsweredPrivately_stopAndNewVisibly() {
        assertTrue(SlashCommandConverter.ephemeral("/queue"));
        assertTrue(SlashCommandConverter.ephemeral("/status"));
        assertFalse(SlashCommandConverter.ephemeral("/stop"));
        assertFalse(SlashCommandConverter.ephemeral("/new"));
    }

    @Test
    void aPayloadWithoutChannel_isIgnored() {
        JsonObject payload = SlackEvents.slashPayload("/new", "", "U1", "C1");
        payload.remove("channel_id");
        assertInstanceOf(Conversion.Ignored.class, SlashCommandConverter.convert(payload, "env-3"));
    }
}

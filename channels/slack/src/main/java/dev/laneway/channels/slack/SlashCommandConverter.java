package dev.laneway.channels.slack;

import com.google.gson.JsonObject;
import java.util.List;

/**
 * Turns a {@code slash_commands} payload into the message a user would have typed:
 * {@code /queue} with text {@code collect cap:5} becomes {@code /queue collect cap:5}, so the
 * gateway's command layer handles slash commands and plain-text commands the same way.
 *
 * <p>Slack does not offer slash commands inside threads, so a slash command addresses its
 * channel's top level ({@code threadId} null) and is answered there. It has no message ts; its
 * id is {@code slash:<trigger_id>} (unique per invocation; the envelope id when absent), which also keeps it out of the
 * progress reactions.
 */
final class SlashCommandConverter {

    static final String ID_PREFIX = "slash:";

    private SlashCommandConverter() {
    }

    static Conversion convert(JsonObject payload, String envelopeId) {
        String command = Json.str(payload, "command");
        String user = Json.str(payload, "user_id");
        String channel = Json.str(payload, "channel_id");
        if (command == null || user == null || channel == null) {
            return new Conversion.Ignored("slash command without command, user_id or channel_id");
        }
        String args = Json.str(payload, "text");
        String text = args == null || args.isBlank() ? command : command + " " + args.strip();
        String trigger = Json.str(payload, "trigger_id");
        String id = ID_PREFIX + (trigger != null ? trigger : envelopeId);
        boolean direct = channel.startsWith("D") || "directmessage".equals(Json.str(payload, "channel_name"));
        return new Conversion.Accepted(new InboundDraft(channel, null, user, Json.str(payload, "user_name"),
                text, List.of(), id, direct, true));
    }
}

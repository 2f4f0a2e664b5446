package dev.laneway.channels.slack;

import com.google.gson.JsonObject;
import java.util.List;
import java.util.Set;

/**
 * Turns a {@code slash_commands} payload into the message a user would have typed:
 * {@code /queue} with text {@code collect cap:5} becomes {@code /queue collect cap:5}, so the
 * gateway's command layer handles slash commands and plain-text commands the same way.
 *
 * <p>Slack does not offer slash commands inside threads, so a slash command addresses its
 * channel's top level ({@code threadId} null). It has no message ts; its id is
 * {@code slash:<trigger_id>} (unique per invocation; the envelope id when absent), which the
 * sending side recognises to answer through the command's {@code response_url}
 * ({@link SlashResponses}). A command is never marked direct here: only the bot's own DM counts as
 * one, which {@link DirectChannels} decides.
 */
final class SlashCommandConverter {

    static final String ID_PREFIX = "slash:";
    /** Answered only to the user who typed them (like Discord); the others visibly in the channel. */
    private static final Set<String> PRIVATE_ANSWERS = Set.of("/queue", "/status");

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
        return new Conversion.Accepted(new InboundDraft(channel, null, user, Json.str(payload, "user_name"),
                text, List.of(), id, false, true, Json.str(payload, "team_id"), true));
    }

    /** Whether the answer to {@code command} is shown only to the user who typed it. */
    static boolean ephemeral(String command) {
        return command != null && PRIVATE_ANSWERS.contains(command.toLowerCase(java.util.Locale.ROOT));
    }
}

package dev.laneway.channels.discord;

/**
 * The texts this channel itself shows for a slash command, for the paths where the gateway gives
 * no answer. The failure line is the engine's (docs/behaviour.md §10.1):
 * {@code ⚠️ Sorry, something went wrong while answering. (<short reason>)}; the refusal follows the
 * commands' {@code ⛔ You are not allowed to ...} wording. Emoji are escapes: {@code \u26A0\uFE0F} is
 * ⚠️, {@code \u26D4} is ⛔.
 */
final class SlashNotices {

    /** A sender outside {@code channels.discord.allowFrom}: the gateway would drop the command silently. */
    static final String NOT_ALLOWED = "\u26D4 You are not allowed to use this bot here.";

    /** No answer came back within {@link InteractionFinisher#ANSWER_DEADLINE}. */
    static final String NO_ANSWER = failure("no answer came back for this command");
    /** Handing the command to the gateway failed. */
    static final String NOT_HANDLED = failure("the command could not be handled");
    /** The answer was sent but Discord refused it. */
    static final String NOT_DELIVERED = failure("the answer could not be delivered");
    /** The channel stopped before the answer came. */
    static final String SHUTTING_DOWN = failure("the bot is shutting down");

    private SlashNotices() {
    }

    static String failure(String shortReason) {
        return "\u26A0\uFE0F Sorry, something went wrong while answering. (" + shortReason + ")";
    }

    static String unknownCommand(String name) {
        return "Unknown command /" + name + ".";
    }
}

package dev.laneway.channels.discord;

import dev.laneway.core.command.CommandDecision;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.command.CommandContext;

/**
 * A stand-in for the commands module where a test is about how an answer travels, not what it says:
 * every known slash command is answered at once with the command line it received and whether the
 * sender was authorized. Tests about what a command does use the real {@code ChatCommands}.
 */
final class TestCommands implements CommandHandler {

    @Override
    public CommandDecision handle(InboundMessage message, CommandContext context) {
        String text = message.text();
        if (!text.matches("/(queue|status|stop|new)\\b.*")) {
            return CommandDecision.NOT_A_COMMAND;
        }
        return new CommandDecision.Reply("handled " + text + " (authorized=" + context.authorized() + ")");
    }
}

package dev.laneway.core.command;

import dev.laneway.core.InboundMessage;

/**
 * Chat commands, handled before any queueing. Implementations must answer at once: they never
 * wait behind a run.
 */
@FunctionalInterface
public interface CommandHandler {

    CommandHandler NONE = (message, context) -> CommandDecision.NOT_A_COMMAND;

    CommandDecision handle(InboundMessage message, CommandContext context);
}

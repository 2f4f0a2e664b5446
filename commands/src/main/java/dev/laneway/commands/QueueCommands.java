package dev.laneway.commands;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.command.CommandContext;
import dev.laneway.core.command.CommandDecision;
import dev.laneway.core.command.GatewayControl;

/**
 * {@code /queue}: show, set, reset, or an inline directive (docs/behaviour.md §6.2). Showing is open to
 * anyone who may talk to the bot; every change needs {@link CommandContext#authorized()}. An
 * inline directive that is refused or not understood never loses the user's text: the text runs
 * with the session's settings and the refusal or problems go back as a notice.
 */
final class QueueCommands {

    private QueueCommands() {
    }

    static CommandDecision handle(InboundMessage message, String arguments, CommandContext context) {
        GatewayControl control = context.control();
        return switch (QueueCommandParser.parse(arguments)) {
            case QueueCommand.Show show -> show(message, context);
            case QueueCommand.Reset reset -> context.authorized() ? reset(context) : reply(Replies.QUEUE_DENIED);
            case QueueCommand.Set set -> context.authorized() ? save(set, context) : reply(Replies.QUEUE_DENIED);
            case QueueCommand.Invalid invalid ->
                    reply(context.authorized() ? invalid.message() : Replies.QUEUE_DENIED);
            case QueueCommand.Inline inline -> inline(inline, context);
            case QueueCommand.Status status -> reply(Replies.queued(control.queued(context.session(), message, false)));
            case QueueCommand.Cancel cancel -> cancel(cancel, message, context);
        };
    }

    /** Anyone may cancel their own queued messages; everyone's needs authority (docs/behaviour.md §6.9). */
    private static CommandDecision cancel(QueueCommand.Cancel cancel, InboundMessage message, CommandContext context) {
        if (cancel.everyone() && !context.authorized()) {
            return reply(Replies.CANCEL_DENIED);
        }
        int count = context.control().cancelQueued(context.session(), message, cancel.everyone());
        return reply(Replies.cancelled(count, cancel.everyone()));
    }

    /** The effective settings; in a group, with a sender's part of the cap (docs/behaviour.md §5.4). */
    private static CommandDecision show(InboundMessage message, CommandContext context) {
        GatewayControl control = context.control();
        QueueSettings settings = control.effectiveSettings(context.session(), message.channel());
        return reply(Replies.show(settings, message.direct() ? 0 : control.capPerSender(settings.cap())));
    }

    private static CommandDecision reset(CommandContext context) {
        context.control().setSessionOverride(context.session(), QueueOverride.NONE);
        return reply(Replies.QUEUE_RESET);
    }

    /** Merges into the stored override and saves the result in one write (one immutable snapshot). */
    private static CommandDecision save(QueueCommand.Set set, CommandContext context) {
        GatewayControl control = context.control();
        QueueOverride stored = control.sessionOverride(context.session()).orElse(QueueOverride.NONE);
        control.setSessionOverride(context.session(), stored.merge(set.override()));
        return reply(Replies.set(set.override()));
    }

    private static CommandDecision inline(QueueCommand.Inline inline, CommandContext context) {
        if (!context.authorized()) {
            return new CommandDecision.Inline(QueueOverride.NONE, inline.text(), Replies.QUEUE_DENIED);
        }
        return switch (inline.settings()) {
            case QueueCommand.Set set -> new CommandDecision.Inline(set.override(), inline.text(), null);
            case QueueCommand.Invalid invalid ->
                    new CommandDecision.Inline(QueueOverride.NONE, inline.text(), invalid.message());
        };
    }

    private static CommandDecision reply(String text) {
        return new CommandDecision.Reply(text);
    }
}

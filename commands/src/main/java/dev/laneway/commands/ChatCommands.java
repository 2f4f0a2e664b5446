package dev.laneway.commands;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.Route;
import dev.laneway.core.command.CommandContext;
import dev.laneway.core.command.CommandDecision;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.jobs.JobStatus;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The chat commands: {@code /queue}, {@code /status}, {@code /stop}, {@code /new} and
 * {@code /reset} (docs/behaviour.md §6). The command word is case-insensitive and may carry a bot
 * suffix ({@code /stop@MyBot}); anything else, other slash words included, is
 * {@link CommandDecision#NOT_A_COMMAND} so the agent sees it. Arguments of {@code /status},
 * {@code /stop} and {@code /new} are ignored.
 *
 * <p>{@code /status} also lists the scheduled jobs that post to the conversation, with their next
 * fire (docs/behaviour.md §6.6, §12).
 *
 * <p>Stateless (beyond its jobs source) and thread-safe. Every command answers at once: it only calls
 * {@link dev.laneway.core.command.GatewayControl}, whose methods return at once, and holds no lock.
 *
 * <p>Who may do what: anyone who may talk to the bot may use {@code /queue} (show) and
 * {@code /status}; changing queue settings needs {@link CommandContext#authorized()}; so do
 * {@code /stop} and {@code /new} in a group (one member must not abort or wipe everyone's
 * conversation), while in a DM they are always allowed.
 */
public final class ChatCommands implements CommandHandler {

    private final Function<Route, List<JobStatus>> jobs;

    /** Commands without scheduled jobs: {@code /status} lists none. */
    public ChatCommands() {
        this(conversation -> List.of());
    }

    /**
     * @param jobs the scheduled jobs that post to a conversation (channel, chat, thread), for
     *             {@code /status}; must return at once (the runner's snapshot)
     */
    public ChatCommands(Function<Route, List<JobStatus>> jobs) {
        this.jobs = Objects.requireNonNull(jobs, "jobs");
    }

    @Override
    public CommandDecision handle(InboundMessage message, CommandContext context) {
        return CommandLine.parse(message.text())
                .map(line -> dispatch(line, message, context))
                .orElse(CommandDecision.NOT_A_COMMAND);
    }

    private CommandDecision dispatch(CommandLine line, InboundMessage message, CommandContext context) {
        return switch (line.name()) {
            case "queue" -> QueueCommands.handle(message, line.arguments(), context);
            case "status" -> reply(StatusText.of(context.control().status(context.session(), message),
                    jobs.apply(message.route().replyingTo(null))));
            case "stop" -> stop(message, context);
            case "new", "reset" -> newConversation(line, message, context);
            default -> CommandDecision.NOT_A_COMMAND;
        };
    }

    private static CommandDecision stop(InboundMessage message, CommandContext context) {
        if (!mayControlRuns(message, context)) {
            return reply(Replies.denied("stop"));
        }
        return reply(Replies.stopped(context.control().stop(context.session())));
    }

    private static CommandDecision newConversation(CommandLine line, InboundMessage message, CommandContext context) {
        if (!mayControlRuns(message, context)) {
            return reply(Replies.denied(line.name()));
        }
        context.control().newConversation(context.session());
        return reply(Replies.NEW_CONVERSATION);
    }

    private static boolean mayControlRuns(InboundMessage message, CommandContext context) {
        return message.direct() || context.authorized();
    }

    private static CommandDecision reply(String text) {
        return new CommandDecision.Reply(text);
    }
}

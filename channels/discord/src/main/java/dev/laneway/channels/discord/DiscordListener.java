package dev.laneway.channels.discord;

import dev.laneway.core.channel.InboundSink;
import dev.laneway.core.channel.Redactor;
import net.dv8tion.jda.api.events.message.MessageReceivedEvent;
import net.dv8tion.jda.api.events.interaction.command.SlashCommandInteractionEvent;
import net.dv8tion.jda.api.events.session.ReadyEvent;
import net.dv8tion.jda.api.events.session.ShutdownEvent;
import net.dv8tion.jda.api.requests.CloseCode;
import net.dv8tion.jda.api.hooks.ListenerAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JDA's event callbacks. They run on JDA's event thread and only convert and hand over: a message
 * goes to the sink (which returns at once), a slash command to {@link SlashCommandIntake}, which
 * answers or acknowledges it asynchronously (so the 3-second deadline is met whatever the gateway
 * does). Every callback is guarded: a failure is logged with what it was about and the next event
 * is handled as usual.
 */
final class DiscordListener extends ListenerAdapter {

    private static final Logger log = LoggerFactory.getLogger(DiscordListener.class);

    private final InboundSink sink;
    private final InboundConverter converter;
    private final SlashCommandIntake slashCommands;
    private final Redactor redactor;

    DiscordListener(InboundSink sink, InboundConverter converter, SlashCommandIntake slashCommands, Redactor redactor) {
        this.sink = sink;
        this.converter = converter;
        this.slashCommands = slashCommands;
        this.redactor = redactor;
    }

    /** Registers the slash commands once per connection of shard 0 (they are global: one shard's registration serves all). */
    @Override
    public void onReady(ReadyEvent event) {
        if (event.getJDA().getShardInfo().getShardId() != 0) {
            return;
        }
        try {
            event.getJDA().updateCommands().addCommands(SlashCommands.definitions()).queue(
                    commands -> log.info("discord: registered {} slash commands", commands.size()),
                    failure -> log.warn("discord: could not register slash commands ({}); plain-text commands still work",
                            redactor.describe(failure)));
        } catch (RuntimeException e) {
            log.warn("discord: could not register slash commands: {}", redactor.describe(e));
        }
    }

    /** JDA gives up only on close codes it cannot recover from; say what to do about the usual ones. */
    @Override
    public void onShutdown(ShutdownEvent event) {
        CloseCode code = event.getCloseCode();
        if (code == CloseCode.DISALLOWED_INTENTS) {
            log.error("discord: Discord refused the connection (close code 4014, disallowed intents): enable the"
                    + " Message Content Intent for the bot in the developer portal (Bot -> Privileged Gateway Intents)");
        } else if (code == CloseCode.AUTHENTICATION_FAILED) {
            log.error("discord: Discord refused the bot token on the gateway (close code 4004): check channels.discord.token");
        } else if (code != null && !code.isReconnect()) {
            log.error("discord: the gateway closed the connection for good (close code {}): {}", code.getCode(), code.getMeaning());
        }
    }

    @Override
    public void onMessageReceived(MessageReceivedEvent event) {
        try {
            converter.fromMessage(event.getMessage()).ifPresent(sink::accept);
        } catch (RuntimeException e) {
            log.warn("discord: message {} in channel {} could not be handled: {}",
                    event.getMessageId(), event.getChannel().getId(), redactor.describe(e));
        }
    }

    /** {@link SlashCommandIntake} answers every failure it can; this guard only keeps the next event safe. */
    @Override
    public void onSlashCommandInteraction(SlashCommandInteractionEvent event) {
        try {
            slashCommands.accept(event);
        } catch (RuntimeException e) {
            log.warn("discord: slash command /{} ({}) could not be handled: {}", event.getName(), event.getId(),
                    redactor.describe(e));
        }
    }
}

package dev.laneway.channels.discord;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.channel.InboundSink;
import dev.laneway.core.channel.Redactor;
import java.util.Optional;
import java.util.Set;
import net.dv8tion.jda.api.events.interaction.command.SlashCommandInteractionEvent;
import net.dv8tion.jda.api.interactions.InteractionHook;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes one slash-command interaction in so that it ends in exactly one answer. Discord needs an
 * acknowledgement within 3 seconds and shows "thinking…" until the answer comes, so every path
 * ends somewhere visible:
 *
 * <ul>
 *   <li>a command this channel does not define: an ephemeral "Unknown command" at once;
 *   <li>a sender outside {@code channels.discord.allowFrom}: an ephemeral refusal at once, and the
 *       gateway never sees it (it would end as {@code DENIED} with no answer at all);
 *   <li>an interaction Discord delivers again (a resume replay): ignored, since the first delivery
 *       owns the one "thinking…" and its answer;
 *   <li>otherwise: deferred, parked in {@link PendingInteractions}, watched by the
 *       {@link InteractionFinisher} and handed to the gateway, whose answer comes through
 *       {@link DiscordOutbound}; if the hand-over throws, the deferred reply becomes a failure
 *       notice at once;
 *   <li>a failure before the acknowledgement: an ephemeral failure notice.
 * </ul>
 *
 * <p>Concurrency: called only on JDA's event thread, one interaction at a time; its collaborators
 * guard themselves, so a redelivery can never race its first delivery here.
 */
final class SlashCommandIntake {

    private static final Logger log = LoggerFactory.getLogger(SlashCommandIntake.class);

    private final InboundSink sink;
    private final InboundConverter converter;
    private final Set<String> allowFrom;
    private final PendingInteractions<InteractionHook> interactions;
    private final InteractionFinisher<InteractionHook> finisher;
    private final Redactor redactor;

    /** @param allowFrom the sender ids that may use the bot; empty allows everyone (as the gateway's access policy) */
    SlashCommandIntake(InboundSink sink, InboundConverter converter, Set<String> allowFrom,
                       PendingInteractions<InteractionHook> interactions, InteractionFinisher<InteractionHook> finisher,
                       Redactor redactor) {
        this.sink = sink;
        this.converter = converter;
        this.allowFrom = Set.copyOf(allowFrom);
        this.interactions = interactions;
        this.finisher = finisher;
        this.redactor = redactor;
    }

    void accept(SlashCommandInteractionEvent event) {
        try {
            take(event);
        } catch (RuntimeException e) {
            log.warn("discord: slash command /{} ({}) could not be handled: {}", event.getName(), event.getId(),
                    redactor.describe(e));
            if (event.isAcknowledged()) {
                finisher.finishIfAwaiting(event.getId(), SlashNotices.NOT_HANDLED);
            } else {
                replyNow(event, SlashNotices.NOT_HANDLED);
            }
        }
    }

    private void take(SlashCommandInteractionEvent event) {
        Optional<String> line = SlashCommands.commandLine(event.getInteraction());
        if (line.isEmpty()) {
            replyNow(event, SlashNotices.unknownCommand(event.getName()));
            return;
        }
        if (!allowed(event.getUser().getId())) {
            log.debug("discord: /{} from {} refused: not in channels.discord.allowFrom", event.getName(), event.getUser().getId());
            replyNow(event, SlashNotices.NOT_ALLOWED);
            return;
        }
        InboundMessage message = converter.fromInteraction(event.getInteraction(), line.get());
        boolean ephemeral = SlashCommands.ephemeral(event.getName());
        String id = event.getId();
        if (!interactions.put(id, event.getHook(), ephemeral)) {
            log.debug("discord: interaction {} (/{}) delivered again; the first delivery answers it", id, event.getName());
            return;
        }
        event.deferReply(ephemeral).queue(null, failure -> {
            // unacknowledged, its token is useless: let the answer go to the channel as a plain message
            interactions.forget(id);
            log.warn("discord: could not acknowledge /{} ({}); its answer will be posted in the channel: {}",
                    event.getName(), id, redactor.describe(failure));
        });
        finisher.watch(id);
        sink.accept(message);
    }

    private boolean allowed(String userId) {
        return allowFrom.isEmpty() || allowFrom.contains(userId);
    }

    private void replyNow(SlashCommandInteractionEvent event, String text) {
        try {
            event.reply(text).setEphemeral(true).queue(null,
                    failure -> log.debug("discord: could not answer /{}: {}", event.getName(), redactor.describe(failure)));
        } catch (RuntimeException e) {
            log.debug("discord: could not answer /{}: {}", event.getName(), redactor.describe(e));
        }
    }
}

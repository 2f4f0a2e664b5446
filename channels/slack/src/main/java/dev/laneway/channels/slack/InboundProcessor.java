package dev.laneway.channels.slack;

import com.google.gson.JsonObject;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.channel.InboundSink;
import java.time.InstantSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs on the channel's serial inbound worker: converts a payload, drops a message already
 * delivered (Slack sends both {@code message} and {@code app_mention} for one mention), marks the
 * thread as one the bot takes part in, looks the sender up ({@code users.info}, cached) and calls
 * the gateway, which returns at once. Nothing here waits for a run.
 *
 * <p>Concurrency: called from one thread at a time (the serial worker); the key sets it shares
 * with the sending side are thread-safe.
 */
final class InboundProcessor {

    private static final Logger log = LoggerFactory.getLogger(InboundProcessor.class);

    private final EventConverter events;
    private final SenderDirectory senders;
    private final RecentKeys delivered;
    private final RecentKeys engagedThreads;
    private final InboundSink sink;
    private final InstantSource clock;

    InboundProcessor(EventConverter events, SenderDirectory senders, RecentKeys delivered,
                     RecentKeys engagedThreads, InboundSink sink, InstantSource clock) {
        this.events = events;
        this.senders = senders;
        this.delivered = delivered;
        this.engagedThreads = engagedThreads;
        this.sink = sink;
        this.clock = clock;
    }

    void event(JsonObject payload) {
        guarded(() -> deliver(events.convert(payload)));
    }

    void slashCommand(JsonObject payload, String envelopeId) {
        guarded(() -> deliver(SlashCommandConverter.convert(payload, envelopeId)));
    }

    private void deliver(Conversion conversion) {
        switch (conversion) {
            case Conversion.Ignored ignored -> log.debug("Slack event ignored: {}", ignored.reason());
            case Conversion.Accepted accepted -> {
                InboundDraft draft = accepted.draft();
                if (!delivered.add(draft.deliveryKey())) {
                    log.debug("Slack message {} in {} already delivered", draft.messageId(), draft.chatId());
                    return;
                }
                if (draft.threadKey() != null) {
                    engagedThreads.add(draft.threadKey());
                }
                InboundMessage message = draft.toMessage(senders.sender(draft.senderId()), clock.instant());
                sink.accept(message);
            }
        }
    }

    private static void guarded(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException | LinkageError e) {
            log.warn("Slack message could not be handed to the gateway: {}", e.toString(), e);
        }
    }
}

package dev.laneway.channels.slack;

import com.google.gson.JsonObject;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.channel.ExpiringKeys;
import dev.laneway.core.channel.InboundSink;
import dev.laneway.core.channel.KeyedSerialExecutor;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Set;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns payloads into gateway messages in two steps. On the channel's serial inbound worker, in
 * the order Slack sent them: convert, drop a message already delivered (Slack sends both
 * {@code message} and {@code app_mention} for one mention), note where a slash command's answer
 * goes, and remember threads the bot was drawn into. Then, per Slack conversation
 * ({@link KeyedSerialExecutor}), so a slow or rate-limited {@code users.info} holds up only its own
 * conversation: look the sender up (cached), decide whether a slash command's {@code D...} channel
 * is the bot's own DM ({@link DirectChannels}), and call the gateway, which returns once the
 * message is stored (never waiting for a run). An event's envelope is acknowledged then, or as
 * soon as the event turns out to need no hand-over ({@link EnvelopeAcks}). When
 * Slack cannot be asked whether it is (both lookups failed), the command is not handed over under a
 * guessed session: the user gets a private hint to try again. Nothing here waits for a run.
 *
 * <p>Only a message from a sender the bot may talk to ({@code channels.slack.allowFrom}; empty =
 * everyone) that mentions the bot, or follows up in a thread it is already in, draws the bot into
 * a thread: a stranger's mention (which the gateway denies) must not open the thread to
 * unmentioned follow-ups.
 *
 * <p>Concurrency: {@link #event} and {@link #slashCommand} are called from one thread at a time
 * (the serial worker); the hand-over runs on the conversation's thread. Every collaborator is
 * thread-safe.
 */
final class InboundProcessor {

    private static final Logger log = LoggerFactory.getLogger(InboundProcessor.class);

    private final EventConverter events;
    private final SenderDirectory senders;
    private final DirectChannels directChannels;
    private final SlashResponses slashResponses;
    private final ExpiringKeys delivered;
    private final ExpiringKeys engagedThreads;
    private final Set<String> allowFrom;
    private final KeyedSerialExecutor conversations;
    private final InboundSink sink;
    private final BiConsumer<String, String> privateAnswer;
    private final InstantSource clock;

    /** @param privateAnswer posts mrkdwn to a slash command's {@code response_url}, seen only by its user */
    InboundProcessor(EventConverter events, SenderDirectory senders, DirectChannels directChannels,
                     SlashResponses slashResponses, ExpiringKeys delivered, ExpiringKeys engagedThreads,
                     Set<String> allowFrom, KeyedSerialExecutor conversations, InboundSink sink,
                     BiConsumer<String, String> privateAnswer, InstantSource clock) {
        this.events = events;
        this.senders = senders;
        this.directChannels = directChannels;
        this.slashResponses = slashResponses;
        this.delivered = delivered;
        this.engagedThreads = engagedThreads;
        this.allowFrom = Set.copyOf(allowFrom);
        this.conversations = conversations;
        this.sink = sink;
        this.privateAnswer = privateAnswer;
        this.clock = clock;
    }

    /** @param receipt acknowledges the envelope once the gateway is done with its message (or it is ignored) */
    void event(JsonObject payload, EnvelopeAcks.Receipt receipt) {
        guarded(receipt, () -> deliver(events.convert(payload), false, receipt));
    }

    void slashCommand(JsonObject payload, String envelopeId) {
        guarded(EnvelopeAcks.Receipt.NONE, () -> {
            Conversion conversion = SlashCommandConverter.convert(payload, envelopeId);
            String responseUrl = Json.str(payload, "response_url");
            if (conversion instanceof Conversion.Accepted accepted && responseUrl != null) {
                slashResponses.expect(accepted.draft().messageId(), responseUrl,
                        SlashCommandConverter.ephemeral(Json.str(payload, "command")));
            }
            deliver(conversion, true, EnvelopeAcks.Receipt.NONE);
        });
    }

    private void deliver(Conversion conversion, boolean slash, EnvelopeAcks.Receipt receipt) {
        switch (conversion) {
            case Conversion.Ignored ignored -> {
                receipt.confirm();
                log.debug("Slack event ignored: {}", ignored.reason());
            }
            case Conversion.Accepted accepted -> {
                InboundDraft draft = accepted.draft();
                if (!delivered.add(draft.deliveryKey())) {
                    receipt.confirm();
                    log.debug("Slack message {} in {} already delivered", draft.messageId(), draft.chatId());
                    return;
                }
                if (draft.direct() && !slash) {
                    directChannels.learn(draft.chatId());
                }
                if (draft.threadKey() != null && draft.mentionsBot() && allowed(draft.senderId())) {
                    engagedThreads.add(draft.threadKey());
                }
                Instant receivedAt = clock.instant();
                conversations.execute(draft.chatId(), () -> handOver(draft, slash, receivedAt, receipt));
            }
        }
    }

    /**
     * On the conversation's own thread: the lookups that may be slow, then the gateway, which
     * returns once the message is stored (or answered); only then is the envelope acknowledged.
     */
    private void handOver(InboundDraft draft, boolean slash, Instant receivedAt, EnvelopeAcks.Receipt receipt) {
        try {
            handOver(draft, slash, receivedAt);
        } finally {
            receipt.confirm();
        }
    }

    private void handOver(InboundDraft draft, boolean slash, Instant receivedAt) {
        guarded(EnvelopeAcks.Receipt.NONE, () -> {
            SenderDirectory.Sender sender = senders.sender(draft.senderId());
            if (sender.bot()) {
                log.debug("Slack message {} in {} ignored: posted by a bot user", draft.messageId(), draft.chatId());
                return;
            }
            InboundDraft placed = draft;
            if (slash && SlackChannel.isDirect(draft.chatId())) {
                switch (directChannels.classify(draft.chatId())) {
                    case BOTS_DM -> placed = draft.withDirect(true);
                    case OTHER -> placed = draft.withDirect(false);
                    case UNKNOWN -> {
                        answerUnplaced(draft);
                        return;
                    }
                }
            }
            sink.accept(placed.toMessage(sender, receivedAt));
        });
    }

    /** A slash command in a DM Slack could not place: not run, and its user is told so, privately. */
    private void answerUnplaced(InboundDraft draft) {
        String command = draft.text().split("\\s+", 2)[0];
        var target = slashResponses.target(draft.messageId());
        if (target.isEmpty()) {
            log.warn("Slack slash command {} in {} was not run (could not tell whether it is the bot's DM) and "
                    + "has no response_url to say so", command, draft.chatId());
            return;
        }
        privateAnswer.accept(target.get().url(), MrkdwnFormatter.escape(unplacedHint(command)));
    }

    /** What the user sees when Slack could not say whether this is their DM with the bot. */
    static String unplacedHint(String command) {
        return "⚠️ " + command + " was not run: I could not check with Slack whether this is your DM with me. "
                + "Please try again in a moment.";
    }

    private boolean allowed(String senderId) {
        return allowFrom.isEmpty() || allowFrom.contains(senderId);
    }

    private static void guarded(EnvelopeAcks.Receipt receipt, Runnable action) {
        try {
            action.run();
        } catch (RuntimeException | LinkageError e) {
            log.warn("Slack message could not be handed to the gateway: {}", e.toString(), e);
            receipt.confirm();
        }
    }
}

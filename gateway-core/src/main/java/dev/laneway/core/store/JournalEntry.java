package dev.laneway.core.store;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueSettings;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * One accepted inbound message as the journal keeps it until it ends: enough to run it again
 * after a restart, in its original order and with its original settings.
 *
 * @param seq      the gateway's sequence number (arrival order, unique, increasing across restarts)
 * @param session  the session key
 * @param message  the message as the channel delivered it
 * @param text     the text for the agent (an inline {@code /queue} directive already stripped)
 * @param settings the queue settings resolved for it on arrival
 * @param trusted    the sender's authority (admin or allow-listed)
 * @param acceptedAt when the gateway accepted it, by the gateway's clock, to the millisecond (what
 *                   {@code messages.queue.ttl} is measured from after a restart; a channel's
 *                   {@code receivedAt} may be the platform's time)
 */
public record JournalEntry(long seq, String session, InboundMessage message, String text, QueueSettings settings,
                           boolean trusted, Instant acceptedAt) {

    public JournalEntry {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(settings, "settings");
        acceptedAt = Objects.requireNonNull(acceptedAt, "acceptedAt").truncatedTo(ChronoUnit.MILLIS);
    }

    /** An entry accepted when its message was received. */
    public JournalEntry(long seq, String session, InboundMessage message, String text, QueueSettings settings,
                        boolean trusted) {
        this(seq, session, message, text, settings, trusted, message.receivedAt());
    }

    /** The platform identity of the message (channel, account, chat, id), or null when it has no id. */
    public String messageKey() {
        return keyOf(message);
    }

    /** The platform identity of a message, as used for dedupe, or null when it has no id. */
    public static String keyOf(InboundMessage message) {
        if (message.platformMessageId() == null) {
            return null;
        }
        return message.channel() + '\u0000' + message.account() + '\u0000' + message.chatId() + '\u0000'
                + message.platformMessageId();
    }
}

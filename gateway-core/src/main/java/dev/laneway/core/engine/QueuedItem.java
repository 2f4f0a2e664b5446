package dev.laneway.core.engine;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.Route;
import dev.laneway.core.agent.MessageFiles;
import java.util.ArrayList;
import java.util.List;

/**
 * One unit of work for a session: normally one inbound message; an inbound-debounced burst is
 * several messages of one sender joined into one text.
 *
 * @param seq      arrival order within the gateway (the first ticket's sequence number)
 * @param tickets  the messages it stands for, oldest first
 * @param text     the text for the agent
 * @param settings the queue settings resolved for it on arrival
 * @param mode     how it drains: {@code COLLECT} coalesces, anything else runs alone
 * @param trusted  the sender's authority (admin or allow-listed); batches never mix authorities
 */
record QueuedItem(long seq, List<Ticket> tickets, String text, QueueSettings settings, QueueMode mode, boolean trusted) {

    QueuedItem {
        tickets = List.copyOf(tickets);
    }

    /** The newest message of the item: it names the sender and the message to reply to. */
    InboundMessage last() {
        return tickets.get(tickets.size() - 1).message();
    }

    /** The route of the newest message (made once per message: see {@link Ticket#route}). */
    Route route() {
        return tickets.get(tickets.size() - 1).route();
    }

    /** The conversation and sender authority this item speaks for. */
    Audience audience() {
        return Audience.of(route(), trusted, scheduled());
    }

    /** Whether it is a scheduled job's prompt (docs/behaviour.md §12): it runs alone, whatever the session's mode. */
    boolean scheduled() {
        return last().origin() == InboundMessage.Origin.SCHEDULE;
    }

    /**
     * Names the sender across channels ({@code channel, account, sender id}): with
     * {@code session.dmScope: main} one session holds senders of several channels, whose ids may clash.
     */
    String senderKey() {
        return senderKey(last());
    }

    /** The sender key (see {@link #senderKey()}) of one message. */
    static String senderKey(InboundMessage message) {
        return message.channel() + '\u0000' + message.account() + '\u0000' + message.senderId();
    }

    /**
     * The attachments of its messages, one entry per message that has any, oldest first
     * (docs/behaviour.md §15.3).
     */
    List<MessageFiles> files() {
        List<MessageFiles> files = null; // made for the first message with attachments: most have none
        for (Ticket ticket : tickets) {
            InboundMessage message = ticket.message();
            if (!message.attachments().isEmpty()) {
                if (files == null) {
                    files = new ArrayList<>(1);
                }
                files.add(new MessageFiles(message.channel(), message.attachments()));
            }
        }
        return files == null ? List.of() : files;
    }

    /** All its attachments as one message's (a steer carries one), or null when it has none. */
    MessageFiles steerFiles() {
        List<MessageFiles> files = files();
        if (files.isEmpty()) {
            return null;
        }
        return files.size() == 1 ? files.get(0) : new MessageFiles(files.get(0).channel(),
                files.stream().flatMap(f -> f.attachments().stream()).toList());
    }

    QueuedItem withMode(QueueMode newMode) {
        if (newMode == mode) {
            return this;
        }
        return new QueuedItem(seq, tickets, text, settings, newMode, trusted);
    }
}

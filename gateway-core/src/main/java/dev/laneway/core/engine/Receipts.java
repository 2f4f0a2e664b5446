package dev.laneway.core.engine;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.Route;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.channel.ChannelCapabilities;
import dev.laneway.core.channel.Receipt;
import dev.laneway.core.channel.ReceiptMode;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Receipts (docs/behaviour.md §16.5): each message shows what the engine decided about it (queued,
 * merged into a collect batch, steered, running, dropped, shed) until its answer arrives. The engine
 * calls in when a disposition is known; each change goes into the chat's {@link Outbox} queue, so a
 * receipt is ordered with the answer: it never arrives after it, and its removal is queued right
 * before the run's first output ({@link #beforeOutput}) or, at the latest, with the message's settle.
 * With {@code receipts: reactions} the channel shows it ({@link ChannelAdapter#react}); with
 * {@code notices} the texts of {@link Notices} go out for queued, merged and steered; with
 * {@code off} nothing. A refused reaction is logged once per chat and never holds up a reply.
 *
 * <p>Concurrency: called off every session lock (in {@link Effects}, or by a channel's or an agent's
 * thread). A ticket's decided receipt ({@code Ticket.receipt}, {@code receiptDone}) changes under
 * the ticket's monitor, which also covers queueing the change, so two changes of one message reach
 * the outbox in the order they were decided; {@code Ticket.receiptShown} is written only by the
 * chat's outbox actions, which run one at a time. {@code warned} guards itself. The modes were read
 * once, when the gateway was built.
 */
final class Receipts {

    /** A queued message's notice names its estimated wait from this long on. */
    static final Duration LONG_WAIT = Duration.ofSeconds(30);
    /** Chats whose refused reaction was logged at WARN; past this many the set starts over. */
    private static final int MAX_WARNED_CHATS = 10_000;
    private static final Logger log = LoggerFactory.getLogger(Receipts.class);

    private final Outbox outbox;
    private final Map<String, ChannelAdapter> channels;
    // channel name -> its receipt mode, for the channels whose mode is not off
    private final Map<String, ReceiptMode> modes;
    // channels with a typing indicator: a message that runs at once shows no receipt there
    private final Set<String> typing;
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    Receipts(Outbox outbox, Map<String, ChannelAdapter> channels, Map<String, ChannelCapabilities> capabilities) {
        this.outbox = outbox;
        this.channels = channels;
        Map<String, ReceiptMode> on = new HashMap<>();
        channels.forEach((name, channel) -> {
            ReceiptMode mode = modeOf(name, channel);
            if (mode != ReceiptMode.OFF) {
                on.put(name, mode);
            }
        });
        this.modes = Map.copyOf(on);
        this.typing = capabilities.entrySet().stream().filter(e -> e.getValue().typing()).map(Map.Entry::getKey)
                .collect(java.util.stream.Collectors.toUnmodifiableSet());
    }

    private static ReceiptMode modeOf(String name, ChannelAdapter channel) {
        try {
            ReceiptMode mode = channel.receipts();
            return mode == null ? ReceiptMode.OFF : mode;
        } catch (Throwable e) {
            Fatal.rethrowIfFatal(e);
            log.error("channel {} could not say how it shows receipts; it shows none: {}", name, e.toString());
            return ReceiptMode.OFF;
        }
    }

    /** Whether any channel shows receipts (most gateways in tests: none, and then nothing is tracked). */
    boolean any() {
        return !modes.isEmpty();
    }

    /**
     * The message waits: {@code position} in line, {@code wait} its estimated wait (null: none known).
     * {@code told}: its sender was told where they stand already (the deferred notice, §11.3), so no
     * receipt notice repeats it.
     */
    void queued(Ticket ticket, int position, Duration wait, boolean told) {
        ReceiptMode mode = modeOf(ticket);
        if (mode == null) {
            return;
        }
        String notice = null;
        if (mode == ReceiptMode.NOTICES && !told) {
            long seconds = wait == null || wait.compareTo(LONG_WAIT) < 0 ? 0 : Math.max(1, (wait.toMillis() + 999) / 1000);
            notice = Notices.receiptQueued(position, seconds);
        }
        change(ticket, mode, Receipt.QUEUED, notice);
    }

    /** The message joined a collect batch waiting in its conversation's queue. */
    void merged(Ticket ticket) {
        ReceiptMode mode = modeOf(ticket);
        if (mode != null) {
            change(ticket, mode, Receipt.MERGED, Notices.RECEIPT_MERGED);
        }
    }

    /** The message was steered into {@code run}; its receipt goes before the run's next output. */
    void steered(Run run, List<Ticket> tickets) {
        for (Ticket ticket : tickets) {
            ReceiptMode mode = modeOf(ticket);
            if (mode != null) {
                change(ticket, mode, Receipt.STEERED, Notices.RECEIPT_STEERED);
                awaitOutput(run, ticket);
            }
        }
    }

    /**
     * {@code run}'s agent is about to start: its messages show that they run (on a channel with a
     * typing indicator only those that showed a receipt already), until its first output.
     */
    void running(Run run) {
        for (Ticket ticket : run.tickets()) {
            ReceiptMode mode = modeOf(ticket);
            if (mode != null) {
                change(ticket, mode, Receipt.RUNNING, null);
                awaitOutput(run, ticket);
            }
        }
    }

    private static void awaitOutput(Run run, Ticket ticket) {
        Queue<Ticket> waiting = run.receiptsBeforeOutput;
        if (waiting != null) {
            waiting.add(ticket);
        }
    }

    /**
     * {@code run} is about to hand its next output (a delta, a tool line, a reply, a notice about
     * it) to the outbox: the receipts of its messages and steers still showing are removed first.
     */
    void beforeOutput(Run run) {
        Queue<Ticket> waiting = run.receiptsBeforeOutput;
        if (waiting == null || waiting.isEmpty()) {
            return;
        }
        for (Ticket ticket = waiting.poll(); ticket != null; ticket = waiting.poll()) {
            clear(ticket);
        }
    }

    /**
     * A message restored after a restart (docs/behaviour.md §16.5): on a channel without a typing
     * indicator every accepted message showed a receipt that is 👀 there whether it waited or ran
     * (Slack), so it is taken as showing one, and its answer removes it; elsewhere what it showed
     * is not known, and it starts afresh (L49). Called before the channel takes traffic.
     */
    void restored(Ticket ticket) {
        ReceiptMode mode = modeOf(ticket);
        if (mode == ReceiptMode.REACTIONS && !typing.contains(ticket.route().channel())) {
            synchronized (ticket) {
                ticket.receipt = Receipt.QUEUED;
            }
            ticket.receiptShown = Receipt.QUEUED;
        }
    }

    /**
     * The ticket's receipt changes no more, and nothing is queued for it: its message is given up
     * here without a word (a lost lease, D230), what it showed stays as it is.
     */
    static void silence(Ticket ticket) {
        synchronized (ticket) {
            ticket.receiptDone = true;
        }
    }

    /** The message ended: a final receipt for one that will get no answer, else its receipt goes. */
    void ended(Ticket ticket, Disposition disposition) {
        ReceiptMode mode = modeOf(ticket);
        if (mode == null) {
            return;
        }
        switch (disposition) {
            case DROPPED_OLD, SUMMARIZED, REJECTED_NEW, INTERRUPTED, STOPPED, EXPIRED ->
                    change(ticket, mode, Receipt.DROPPED, null);
            default -> clear(ticket);
        }
    }

    /** A message turned away before it was accepted (admission, or the scheduler shed it): no ticket. */
    void shed(InboundMessage message) {
        if (modes.isEmpty() || message.origin() != InboundMessage.Origin.MESSAGE) {
            return;
        }
        Route route = message.route();
        ReceiptMode mode = modes.get(route.channel());
        if (mode == ReceiptMode.REACTIONS && route.replyToMessageId() != null) {
            outbox.afterDelivered(route, () -> react(route, null, Receipt.SHED, null));
        }
    }

    /** The message's answer is next: its receipt goes; it shows none from now on. */
    void clear(Ticket ticket) {
        ReceiptMode mode = modeOf(ticket);
        if (mode != null) {
            change(ticket, mode, null, null);
        }
    }

    /**
     * The mode of the ticket's channel, or null when it shows no receipts: also for a message that is
     * not one a user typed in the chat (a slash command's answer goes through its interaction or
     * response URL, which a receipt notice must not spend; a scheduled job's prompt has nobody to tell)
     * or that has no platform id.
     */
    private ReceiptMode modeOf(Ticket ticket) {
        if (modes.isEmpty() || ticket.message().origin() != InboundMessage.Origin.MESSAGE) {
            return null;
        }
        Route route = ticket.route();
        return route.replyToMessageId() == null ? null : modes.get(route.channel());
    }

    /**
     * Moves the ticket's receipt to {@code next} (null: removed for good) and queues what shows it:
     * the reaction, or {@code notice} (may be null) in notices mode.
     */
    private void change(Ticket ticket, ReceiptMode mode, Receipt next, String notice) {
        Route route = ticket.route();
        synchronized (ticket) {
            Receipt now = ticket.receipt;
            if (ticket.receiptDone || (next != null && next == now)) {
                return;
            }
            if (next == null || next.isFinal()) {
                ticket.receiptDone = true;
            }
            if (next == Receipt.RUNNING && now == null && (typing.contains(route.channel()) || mode == ReceiptMode.NOTICES)) {
                return; // the typing indicator (or nothing, in notices mode) says it runs
            }
            if (next == null && now == null) {
                return; // nothing shown: nothing to remove
            }
            ticket.receipt = next;
            if (mode == ReceiptMode.REACTIONS) {
                outbox.afterDelivered(route, () -> react(route, ticket, next, null));
            } else if (notice != null) {
                outbox.send(route, notice);
            }
        }
    }

    /**
     * The outbox's action: the channel shows {@code next} (null: nothing) where the platform shows
     * the ticket's current reaction ({@code ticket} null: a message without one, shown {@code base}).
     */
    private void react(Route route, Ticket ticket, Receipt next, Receipt base) {
        Receipt shown = ticket == null ? base : ticket.receiptShown;
        if (next == shown) {
            return; // also: nothing to remove where nothing was added (or the add was refused)
        }
        ChannelAdapter channel = channels.get(route.channel());
        try {
            channel.react(route, next, shown);
            if (ticket != null) {
                ticket.receiptShown = next;
            }
        } catch (Throwable e) {
            Fatal.rethrowIfFatal(e);
            if (ticket != null) {
                ticket.receiptShown = null; // what was shown is unknown: nothing is removed later
            }
            refused(route, e);
        }
    }

    private void refused(Route route, Throwable e) {
        String chat = route.chatKey();
        if (warned.size() >= MAX_WARNED_CHATS) {
            warned.clear();
        }
        if (warned.add(chat)) {
            log.warn("receipts: channel {} refused a reaction in chat {} ({}); answers are not affected, later "
                    + "refusals in this chat are logged at debug", route.channel(), route.chatId(), e.toString());
        } else {
            log.debug("receipts: channel {} refused a reaction in chat {}: {}", route.channel(), route.chatId(),
                    e.toString());
        }
    }
}

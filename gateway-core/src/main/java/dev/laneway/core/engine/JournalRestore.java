package dev.laneway.core.engine;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.Route;
import dev.laneway.core.SessionKey;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.core.store.LiveMessage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs again every message the journal still holds from before a restart, in arrival order and
 * with the settings it had: queued followups, steers no model answered, and messages whose run was
 * in flight at a crash. Each entry is offered as its own item, bypassing inbound debounce (each was
 * already its own journal entry with its own mode; joining them would change what the user gets).
 * One exception to "the mode it had": a {@code steer-backlog} message is restored as a followup
 * only. What is still pending of it is its own backlog turn; its steer may have been answered
 * before the restart, and steering it into a restored run would answer it once more.
 * Messages the gateway accepted longer than {@code messages.queue.ttl} ago are dropped instead:
 * one log line, one notice per sender in each session (at their last expired message), sent before
 * those messages are settled. A live message a streamed answer left behind (the process died
 * mid-stream) is first edited to carry the {@code ⚠️ Interrupted.} mark, through its chat's outbox,
 * so the mark goes before the fresh answer (docs/behaviour.md §16.3). Runs once, on the thread that
 * starts the gateway, before any channel takes traffic.
 */
final class JournalRestore {

    // the gateway's logger, as before this was split out: operators may filter on it
    private static final Logger log = LoggerFactory.getLogger(JournalRestore.class);

    private JournalRestore() {
    }

    /**
     * @param enqueue hands one restored item to its session, without inbound debounce
     * @param restart true for the restore at start (logged at INFO); false for messages a fleet's
     *                instance picks up from the shared journal (docs/behaviour.md §17), logged at DEBUG
     */
    static void run(List<JournalEntry> pending, EngineContext ctx, DedupeCache dedupe,
                    BiConsumer<SessionKey, QueuedItem> enqueue, boolean restart) {
        if (pending.isEmpty()) {
            return;
        }
        markOrphans(pending, ctx, restart);
        Instant horizon = ctx.clock.instant().minus(ctx.settings.queueTtl());
        // session and sender key -> where that sender's expiry notice goes: once per sender in each
        // session, as the engine's own notices (with dmScope: main, once across every DM)
        Map<String, Route> expiredSenders = new LinkedHashMap<>();
        List<Ticket> expired = new ArrayList<>();
        for (JournalEntry entry : pending) {
            InboundMessage message = entry.message();
            dedupe.firstSighting(message);
            Ticket ticket = new Ticket(entry.seq(), message, ctx.admission.admitRestored((int) entry.seq()));
            ticket.announce(); // the channel was told before the restart; it hears how the message ends
            if (restart) {
                // only a restart assumes the receipt shown before it; a message picked up in a fleet
                // was shown none by the instance that received it (D232)
                ctx.receipts.restored(ticket);
            }
            if (entry.acceptedAt().isBefore(horizon)) {
                expired.add(ticket);
                if (!ScheduledPrompts.is(message)) { // a scheduled prompt has nobody to tell (§12)
                    expiredSenders.put(entry.session() + '\u0000' + QueuedItem.senderKey(message), message.route());
                }
                continue;
            }
            QueueSettings settings = restoredSettings(entry.settings());
            enqueue.accept(SessionKey.of(entry.session()), new QueuedItem(entry.seq(), List.of(ticket), entry.text(),
                    settings, settings.mode(), entry.trusted()));
        }
        if (!expired.isEmpty()) {
            log.warn("restore: dropped {} queued message(s) older than messages.queue.ttl ({} ms)", expired.size(),
                    ctx.settings.queueTtl().toMillis());
            // the notices first, so each reaches its chat's outbox before the settles of the messages it is about
            String notice = Notices.expired(ctx.settings.queueTtl());
            expiredSenders.values().forEach(route -> ctx.outbox.send(route, notice));
            expired.forEach(ticket -> ctx.settlement.settle(ticket, Disposition.EXPIRED));
        }
        if (restart) {
            log.info("restore: {} message(s) from before the restart queued again", pending.size() - expired.size());
        } else {
            log.debug("fleet: {} message(s) picked up from the shared journal", pending.size() - expired.size());
        }
    }

    /**
     * Edits every live message recorded against these entries to its text followed by
     * {@code ⚠️ Interrupted.}, each once, as one update of a {@link LiveSegment#orphan} in its
     * chat's outbox; the journal forgets it once that update is done with (sent, or given up: a
     * platform that refuses the edit is not asked again).
     */
    private static void markOrphans(List<JournalEntry> pending, EngineContext ctx, boolean restart) {
        List<LiveMessage> orphans;
        try {
            orphans = ctx.journal.liveMessages(pending.stream().map(JournalEntry::seq).toList());
        } catch (RuntimeException e) {
            log.warn("restore: could not read the live messages of interrupted answers; they are not marked: {}",
                    e.toString());
            return;
        }
        Set<String> marked = new HashSet<>();
        for (LiveMessage orphan : orphans) {
            if (!marked.add(orphan.route().chatKey() + '\u0000' + orphan.messageId())) {
                continue;
            }
            LiveSegment segment = LiveSegment.orphan(orphan.messageId(), orphan.text(), LiveAnswer.INTERRUPTED);
            ctx.outbox.live(orphan.route(), null, segment, () -> true, null, true,
                    () -> ctx.journal.liveGone(orphan.seq(), orphan.messageId()));
        }
        if (!marked.isEmpty()) {
            if (restart) {
                log.info("restore: {} answer(s) cut off mid-stream marked interrupted", marked.size());
            } else {
                log.debug("fleet: {} answer(s) cut off mid-stream marked interrupted", marked.size());
            }
        }
    }

    /** The settings a restored message runs with: its own, but steer-backlog becomes followup. */
    private static QueueSettings restoredSettings(QueueSettings settings) {
        if (settings.mode() != QueueMode.STEER_BACKLOG) {
            return settings;
        }
        return new QueueSettings(QueueMode.FOLLOWUP, settings.debounce(), settings.cap(), settings.drop());
    }
}

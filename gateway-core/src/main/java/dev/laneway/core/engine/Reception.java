package dev.laneway.core.engine;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.SessionKey;
import dev.laneway.core.command.CommandContext;
import dev.laneway.core.command.CommandDecision;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.command.GatewayControl;
import dev.laneway.core.scheduling.OverBudget;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.core.store.MessageJournal;
import dev.laneway.core.store.SessionStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The way in for one inbound message, from the channel's call to its session's queue: dedupe,
 * access policy, commands, settings resolution, admission, the journal (a message counts as
 * accepted only once it is durable), then the {@link SessionQueue} decides (run now, steer, queue,
 * interrupt). Every message ends in exactly one disposition, also when a step fails on the way
 * (see {@link Intake}). Once {@link #close closed} (shutdown), a message that gets that far is
 * journaled and left pending instead: no queue, no run, no busy reply; it runs after the restart
 * and ends there. Also runs the journal's restore at start, through the same queues.
 *
 * <p>Concurrency: {@link #accept} may be called from any number of SDK threads; each message's
 * progress is confined to its {@link Intake}; the collaborators are thread-safe, {@code closed} is
 * volatile, {@code kept} atomic, and {@code restored} is touched only by the thread that starts the gateway.
 */
final class Reception {

    // the gateway's logger, as before this was split out: operators may filter on it
    private static final Logger log = LoggerFactory.getLogger(Reception.class);
    private static final Duration JOURNAL_TIMEOUT = Duration.ofSeconds(30);

    private final GatewaySettings settings;
    private final EngineContext ctx;
    private final SessionStore store;
    private final CommandHandler commands;
    private final GatewayControl control;
    private final AccessPolicy access;
    private final Authorization authorization;
    private final DedupeCache dedupe;
    private final MessageJournal journal;
    private final AtomicLong sequence;
    private final AtomicInteger kept = new AtomicInteger();
    private final RestingSessions resting;
    private volatile boolean closed;
    private boolean restored;

    Reception(EngineContext ctx, SessionStore store, CommandHandler commands, GatewayControl control, AccessPolicy access) {
        this.settings = ctx.settings;
        this.ctx = ctx;
        this.store = store;
        this.commands = commands;
        this.control = control;
        this.access = access;
        this.journal = ctx.journal;
        this.sequence = new AtomicLong(journal.lastSequence());
        this.authorization = new Authorization(settings.commandAllowFrom());
        this.dedupe = new DedupeCache(settings.dedupeWindow(), ctx.clock);
        this.resting = new RestingSessions(ctx.sessions, ctx.clock, ctx.executor);
        if (ctx.fleet != null) {
            ctx.fleet.adopter(entries -> JournalRestore.run(entries, ctx, dedupe,
                    (session, item) -> enqueue(session, item, Duration.ZERO), false));
        }
    }

    /**
     * Shutdown: from now on a new message is journaled and left pending for the next start (see
     * {@link #accept}); without a journal to keep it in, it gets the busy reply instead.
     */
    void close() {
        closed = true;
    }

    boolean closed() {
        return closed;
    }

    /** Messages kept for the next start because they arrived after {@link #close}. */
    int keptForRestart() {
        return kept.get();
    }

    /** Runs again what the journal still holds (see {@link JournalRestore}); once per process. */
    void restore() {
        if (restored) {
            return;
        }
        restored = true;
        if (ctx.fleet != null) {
            ctx.fleet.start(); // a fleet restores by lease: the sweep takes over sessions nobody holds (§17)
            return;
        }
        JournalRestore.run(journal.pending(), ctx, dedupe,
                (session, item) -> enqueue(session, item, Duration.ZERO), true); // restored items bypass inbound debounce
    }

    /**
     * Takes one inbound message (see the class comment); returns at once, never throws for a bad one.
     * Returns whether it was accepted: journaled and not refused on the way (a scheduled job counts
     * its fires by this).
     */
    boolean accept(InboundMessage message) {
        Intake intake = new Intake(message);
        try {
            route(intake);
        } catch (RuntimeException | LinkageError e) {
            failed(intake, e);
        }
        Ticket ticket = intake.ticket;
        return ticket != null && ticket.disposition() != Disposition.REJECTED_BUSY;
    }

    private void route(Intake intake) {
        InboundMessage message = intake.message;
        Instant now = ctx.clock.instant();
        intake.firstSighting = dedupe.firstSighting(message);
        if (!intake.firstSighting || seenBefore(message)) {
            intake.done = true;
            record(message, Disposition.DUPLICATE);
            return;
        }
        boolean fromJob = ScheduledPrompts.is(message); // trusted config: no access check, no commands (§12)
        intake.allowed = fromJob || access.allows(message);
        if (!intake.allowed) {
            intake.done = true;
            record(message, Disposition.DENIED);
            return;
        }
        SessionKey session = settings.sessionScope().keyOf(message);
        boolean trusted = authorization.trusted(message);
        InboundMessage effective = message;
        QueueOverride inline = QueueOverride.NONE;
        if (!fromJob && message.text().startsWith("/")) {
            flushInbound(session, message.senderId());
            CommandDecision decision = decide(message, session, trusted);
            switch (decision) {
                case CommandDecision.Reply reply -> {
                    // recorded first: once done is set, a failing send must not leave it with no disposition
                    record(message, Disposition.COMMAND);
                    intake.done = true;
                    ctx.outbox.send(message.route(), reply.text());
                    return;
                }
                case CommandDecision.Inline directive -> {
                    if (directive.notice() != null) {
                        ctx.outbox.send(message.route(), directive.notice());
                    }
                    effective = message.withText(directive.text());
                    inline = directive.override();
                }
                case CommandDecision.NotACommand none -> { }
            }
        }
        // shutting down: journaled, not run, not refused; it runs after the restart (holds no slot)
        boolean keep = closed && journal != MessageJournal.NONE;
        if (!keep && (closed || !ctx.admission.tryAdmit(session.hashCode()))) {
            intake.done = true;
            record(message, Disposition.REJECTED_BUSY);
            if (!fromJob) {
                ctx.receipts.shed(message);
            }
            busy(message, fromJob, ctx.admission.retryAfterSeconds());
            return;
        }
        // the session as the registry holds it now (null: none yet, or kept for the restart): looked up
        // once, for the admission and the hand-over below (docs/decisions.md D245)
        SessionQueue known = keep ? null : ctx.sessions.get(session);
        RunScheduling.Verdict verdict = keep ? RunScheduling.Verdict.PROCEED : scheduled(message, session, known);
        if (verdict.shed()) {
            intake.done = true;
            ctx.admission.release(session.hashCode());
            record(message, Disposition.REJECTED_BUSY);
            if (!fromJob) {
                ctx.receipts.shed(message);
            }
            busy(message, fromJob, verdict.estimate().waitSeconds());
            return;
        }
        boolean degraded = degraded(verdict, message);
        long seq;
        boolean elsewhere = false; // its session's lease is another instance's: journaled here, run there (§17)
        try {
            seq = journal.sharesSequence() ? journal.nextSequence() : sequence.incrementAndGet();
            if (!keep && ctx.fleet != null && !ctx.fleet.claim(session, seq)) {
                elsewhere = true;
                keep = true;
                ctx.admission.release(session.hashCode());
            }
        } catch (RuntimeException e) {
            if (!keep) {
                ctx.admission.release(session.hashCode());
            }
            throw e;
        }
        intake.ticket = new Ticket(seq, message, !keep, degraded);
        intake.reason = "storage unavailable";
        QueueSettings resolved = resolve(session, message.channel(), inline);
        if (fromJob) {
            resolved = ScheduledPrompts.settings(resolved); // always a turn of its own
        }
        JournalEntry entry = new JournalEntry(intake.ticket.seq(), session.value(), message, effective.text(), resolved,
                trusted, now);
        if (!journaled(entry)) {
            refuse(intake);
            return;
        }
        intake.reason = "internal error";
        ctx.settlement.accepted(intake.ticket);
        if (elsewhere) {
            log.debug("message {} of session {} journaled for the instance that holds its lease", entry.seq(), session);
            journal.runsElsewhere(entry.seq()); // its end is recorded there (D234)
            ctx.fleet.elsewhere(session);
            return;
        }
        if (keep) {
            kept.incrementAndGet();
            log.debug("message {} arrived during the shutdown; kept for the next start", entry.seq());
            return;
        }
        // a degraded message is not told to wait: a fallback answers it (docs/behaviour.md §13.3); a job has nobody to tell
        if (verdict.deferred() && !degraded && !fromJob) {
            ctx.outbox.send(message.route(), Notices.deferred(verdict.estimate().position(), verdict.estimate().waitSeconds()));
        }
        if (verdict != RunScheduling.Verdict.PROCEED && !degraded && !fromJob) { // its run waits for main (§11.3)
            ctx.receipts.queued(intake.ticket, verdict.estimate().position(), verdict.estimate().expected(),
                    verdict.deferred());
        }
        enqueue(session, new QueuedItem(entry.seq(), List.of(intake.ticket), effective.text(), resolved, resolved.mode(),
                trusted), fromJob ? Duration.ZERO : inboundDebounce(message.channel()), known);
        if (ctx.fleet != null) {
            ctx.fleet.enqueued(session, entry.seq());
        }
    }

    /**
     * Tells the sender of a refused message to try again later; a scheduled job's prompt has no
     * sender to tell (docs/behaviour.md §11.3), so its refusal is logged instead.
     */
    private void busy(InboundMessage message, boolean fromJob, long retryAfterSeconds) {
        if (fromJob) {
            log.warn("scheduled prompt from {} was refused: the gateway is busy (retry in about {} s); this fire is lost",
                    message.senderId(), retryAfterSeconds);
            return;
        }
        ctx.outbox.send(message.route(), Notices.busy(retryAfterSeconds));
    }

    /**
     * The scheduler's admission (docs/behaviour.md §11.3) of a message that would start a new run of
     * an idle session; one that joins a session with work (a run, a queue, a debounce buffer) waits
     * behind that session's work, which was admitted (and its sender told) already.
     */
    private RunScheduling.Verdict scheduled(InboundMessage message, SessionKey session, SessionQueue queue) {
        if (queue != null && queue.busy()) {
            return RunScheduling.Verdict.PROCEED;
        }
        RunScheduling.Verdict verdict = ctx.scheduling.admit(message, session);
        if (verdict.action() != null) {
            ctx.observer.admission(verdict.claim().priority(), verdict.action().configName(), verdict.reason().id);
        }
        return verdict;
    }

    /**
     * Whether the scheduler's admission degraded the message and its agent has a fallback to start
     * on (docs/behaviour.md §13.3); without a fallback, {@code degrade} acts as {@code defer}.
     */
    private boolean degraded(RunScheduling.Verdict verdict, InboundMessage message) {
        return verdict.action() == OverBudget.DEGRADE && ctx.ladderFor(message).size() > 1;
    }

    /**
     * Something failed after dedupe (a store read, a policy, a bug): the message still ends in
     * exactly one disposition, its slot is given back, its sender hears about it, and it is not
     * remembered as seen, so a platform redelivery is processed.
     */
    private void failed(Intake intake, Throwable e) {
        InboundMessage message = intake.message;
        log.error("inbound message {} from {} chat {} could not be handled", message.platformMessageId(), message.channel(),
                message.chatId(), e);
        if (!intake.firstSighting || intake.done) {
            return; // a duplicate, or its disposition is already recorded
        }
        try {
            refuse(intake);
        } catch (RuntimeException | LinkageError again) {
            log.error("inbound message {} from {} could not be refused cleanly either: {}", message.platformMessageId(),
                    message.channel(), again.toString());
        }
    }

    /**
     * Ends an accepted-so-far message as refused (REJECTED_BUSY) with the failure notice, and forgets
     * it so a redelivery is processed. A message the session queue already ended (dropped, rejected)
     * before the failure keeps its disposition and stays remembered: a redelivery is a duplicate.
     */
    private void refuse(Intake intake) {
        InboundMessage message = intake.message;
        if (intake.ticket != null && intake.ticket.disposition() != null) {
            return; // the session queue settled it before the failure
        }
        dedupe.forget(message);
        if (intake.ticket == null) {
            record(message, Disposition.REJECTED_BUSY);
            notifyFailure(intake);
            return;
        }
        try {
            notifyFailure(intake); // before the settle: told before the message counts as ended
        } finally {
            // settles it unanswered in the journal too: a late commit must not come back after a restart
            ctx.settlement.settle(intake.ticket, Disposition.REJECTED_BUSY);
        }
    }

    private void notifyFailure(Intake intake) {
        if (ScheduledPrompts.is(intake.message)) { // nobody in the chat sent it (docs/behaviour.md §12)
            log.warn("scheduled prompt from {} was refused ({}); this fire is lost", intake.message.senderId(),
                    intake.reason);
            return;
        }
        if (mayAnswer(intake)) {
            ctx.outbox.send(intake.message.route(), Notices.failure(intake.reason));
        }
    }

    /** Whether the sender may hear back: never when the access policy refuses them or cannot tell. */
    private boolean mayAnswer(Intake intake) {
        if (intake.allowed != null) {
            return intake.allowed;
        }
        try {
            return access.allows(intake.message);
        } catch (RuntimeException e) {
            return false;
        }
    }

    private Duration inboundDebounce(String channel) {
        return settings.inboundByChannel().getOrDefault(channel, settings.inboundDebounce());
    }

    /** Hands an item to its session's queue (making the queue if the registry holds none). */
    private void enqueue(SessionKey session, QueuedItem item, Duration inboundDebounce) {
        enqueue(session, item, inboundDebounce, null);
    }

    /**
     * As {@link #enqueue(SessionKey, QueuedItem, Duration)}, trying {@code known} first (may be null):
     * the session the registry held when the message came; one that retired since refuses the item,
     * and the registry is asked again.
     */
    private void enqueue(SessionKey session, QueuedItem item, Duration inboundDebounce, SessionQueue known) {
        SessionQueue queue = known != null ? known : sessionQueue(session);
        while (!queue.accept(item, inboundDebounce, settings.inboundMaxWaitFor(inboundDebounce))) {
            Thread.onSpinWait();
            queue = sessionQueue(session);
        }
    }

    /** A message the journal knows from before (pending or answered): a platform redelivery. */
    private boolean seenBefore(InboundMessage message) {
        String key = JournalEntry.keyOf(message);
        return key != null && journal.seen(key);
    }

    /** Appends to the journal and waits for the group commit: only then is the message accepted. */
    private boolean journaled(JournalEntry entry) {
        try {
            journal.append(entry).get(JOURNAL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            log.error("message {} could not be recorded durably, refusing it: {}", entry.seq(), e.toString());
            return false;
        }
    }

    private CommandDecision decide(InboundMessage message, SessionKey session, boolean trusted) {
        try {
            CommandDecision decision = commands.handle(message, new CommandContext(session, trusted, control));
            return decision == null ? CommandDecision.NOT_A_COMMAND : decision;
        } catch (RuntimeException e) {
            log.error("command handler failed on a message from {}", message.channel(), e);
            return new CommandDecision.Reply(Notices.failure("command failed"));
        }
    }

    private void flushInbound(SessionKey session, String senderId) {
        SessionQueue queue = ctx.sessions.get(session);
        if (queue != null) {
            queue.flushInbound(senderId);
        }
    }

    private SessionQueue sessionQueue(SessionKey session) {
        SessionQueue queue = ctx.sessions.get(session);
        if (queue != null) {
            return queue;
        }
        // a chat with no session (new, or its session retired after resting): one insertion (a queue
        // made for a lost race is dropped unused: it holds nothing yet)
        SessionQueue fresh = new SessionQueue(session, ctx);
        queue = ctx.sessions.putIfAbsent(session, fresh);
        if (queue != null) {
            return queue;
        }
        resting.sessionMade();
        return fresh;
    }

    private void record(InboundMessage message, Disposition disposition) {
        ctx.observer.recorded(message, disposition); // ObserverFanout guards it
    }

    /** Settings resolution, first hit wins: inline, session override, byChannel, global, defaults. */
    QueueSettings resolve(SessionKey session, String channel, QueueOverride inline) {
        QueueSettings resolved = settings.queueDefaults().with(settings.queueByChannel().get(channel));
        resolved = resolved.with(store.queueOverride(session).orElse(null));
        return resolved.with(inline);
    }
}

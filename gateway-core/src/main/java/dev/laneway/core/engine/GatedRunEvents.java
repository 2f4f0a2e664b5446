package dev.laneway.core.engine;

import dev.laneway.core.SessionKey;
import dev.laneway.core.agent.RunEvents;
import dev.laneway.core.agent.SteerMessage;
import dev.laneway.core.channel.TextChunker;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The events a run's agent sees: replies go to the outbox unless the run has been aborted (or has
 * moved on to a fallback agent: this start's events are then stale); the
 * outbox reports a reply it could not deliver to the run's {@link Delivery}.
 * What each delivered reply answers (the run's messages, the first time, and the steers it names)
 * counts as answered from then on ({@link Answers}): the record of a reply that names no steer
 * rides right behind it in the outbox. When the run's chat streams ({@code live} is not null,
 * docs/behaviour.md §16), deltas and tool steps go to its {@link LiveAnswer}, and a reply completes
 * the live reply the deltas began instead of being sent anew; otherwise they are dropped here.
 *
 * <p>A run's answer is bounded: once its replies reach {@code maxAnswerChars} characters, the reply
 * that crosses the bound is cut (at the best boundary before it, a code fence closed there), the
 * user is told that the answer was cut, and every later reply of the run is dropped.
 *
 * <p>Concurrency: agents may call in from any thread; {@code answered} (the characters handed to the
 * outbox, or {@link #CUT} once the bound was reached) changes by compare-and-set only, so a reply
 * takes no lock; the outbox is called after it (an agent replies from one thread at a time, so its
 * replies reach the outbox in order).
 */
final class GatedRunEvents implements RunEvents {

    private static final Logger log = LoggerFactory.getLogger(GatedRunEvents.class);

    private final Run run;
    // the run's start these events belong to: once the run moved on to a fallback agent, the
    // earlier agent's events are dropped (docs/behaviour.md §13.2)
    private final int launch;
    private final SessionKey session;
    private final Outbox outbox;
    private final int maxAnswerChars;
    private final Runnable onRetry;
    private final Answers answers;
    private final BooleanSupplier stillWanted;
    private final LiveAnswer live; // null: the answer is not streamed
    private final Receipts receipts; // null: no receipts (docs/behaviour.md §16.5)
    // characters of this run's answer handed to the outbox, or CUT once it reached its bound (nothing
    // more is sent); changed through ANSWERED only
    private volatile long answered;
    private static final long CUT = -1;
    private static final VarHandle ANSWERED;

    static {
        try {
            ANSWERED = MethodHandles.lookup().findVarHandle(GatedRunEvents.class, "answered", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** What a delivered reply answers, recorded by the run's session ({@link Steering}). */
    interface Answers {
        /**
         * For a reply that answers no steer, before it is queued: the action recording what it
         * answers, to queue right behind it, or null. Takes no lock.
         */
        Runnable recordBehind();

        /** For a reply that answers {@code steers}, once it is queued: records them (takes the session lock). */
        void answered(List<SteerMessage> steers);
    }

    GatedRunEvents(Run run, int launch, SessionKey session, Outbox outbox, int maxAnswerChars, Runnable onRetry,
            Answers answers) {
        this(run, launch, session, outbox, maxAnswerChars, onRetry, answers, null);
    }

    /** With the run's live answer ({@code live}, may be null: not streamed). */
    GatedRunEvents(Run run, int launch, SessionKey session, Outbox outbox, int maxAnswerChars, Runnable onRetry,
            Answers answers, LiveAnswer live) {
        this(run, launch, session, outbox, maxAnswerChars, onRetry, answers, live, null);
    }

    /**
     * With the receipts (may be null): the receipts of the run's messages and steers are removed
     * right before its next output reaches the outbox.
     */
    GatedRunEvents(Run run, int launch, SessionKey session, Outbox outbox, int maxAnswerChars, Runnable onRetry,
            Answers answers, LiveAnswer live, Receipts receipts) {
        this.receipts = receipts;
        this.live = live;
        this.run = run;
        this.launch = launch;
        this.session = session;
        this.outbox = outbox;
        this.maxAnswerChars = maxAnswerChars;
        this.onRetry = onRetry;
        this.answers = answers;
        this.stillWanted = () -> !run.silenced();
    }

    @Override
    public void retrying(String reason) {
        onRetry.run();
        if (live != null && !aborted()) {
            live.restart();
        }
    }

    @Override
    public void delta(String text) {
        long sent = answered;
        if (live == null || text == null || text.isEmpty() || sent == CUT || aborted()) {
            return;
        }
        beforeOutput();
        live.delta(text, maxAnswerChars - sent);
    }

    @Override
    public void toolStep(String tool, String status) {
        if (live != null && tool != null && answered != CUT && !aborted()) {
            beforeOutput();
            live.tool(tool, status);
        }
    }

    @Override
    public void reply(String text) {
        reply(text, List.of());
    }

    @Override
    public void reply(String text, List<SteerMessage> answeredSteers) {
        if (aborted() || text == null || text.isBlank()) {
            return;
        }
        run.delivered = true;
        beforeOutput();
        List<SteerMessage> steers = answeredSteers == null ? List.of() : answeredSteers;
        // what the reply answers is recorded once it is out: for no steers by an action that rides
        // right behind it in the chat's outbox queue; steers are recorded under the lock, below
        Runnable record = steers.isEmpty() ? answers.recordBehind() : null;
        String head; // null: the whole text goes; else the part that fits ("" once the answer was cut)
        boolean crossed = false;
        while (true) {
            long sent = answered;
            if (sent == CUT) {
                head = "";
                break;
            }
            long room = maxAnswerChars - sent;
            if (text.length() <= room) {
                if (ANSWERED.compareAndSet(this, sent, sent + text.length())) {
                    head = null;
                    break;
                }
            } else if (ANSWERED.compareAndSet(this, sent, CUT)) {
                crossed = true;
                head = head(text, (int) room);
                break;
            }
        }
        if (head == null) {
            if (live == null || !live.finish(text, record)) {
                outbox.answer(run.route, session, text, stillWanted, run.delivery, record);
            }
        } else if (crossed) {
            log.warn("run {} of session {}: the answer is longer than {} characters (messages.maxAnswerChars); the"
                    + " rest is cut", run.id, session, maxAnswerChars);
            if (live == null || !live.finish(head, null)) {
                outbox.answer(run.route, session, head, stillWanted, run.delivery, null);
            }
            outbox.answer(run.route, session, Notices.answerCut(maxAnswerChars), stillWanted, run.delivery, record);
        } else if (record != null) {
            outbox.afterDelivered(run.route, record); // nothing more is sent: it follows what went before
        }
        if (record != null) {
            run.itemsRecordQueued = true;
        }
        // a cut or dropped reply still answers its steers: the model saw them and the user is told the
        // answer was cut, so running them again would answer twice
        if (!steers.isEmpty()) {
            answers.answered(steers);
        }
    }

    /** Removes the receipts still showing on the run's messages and steers, before its output is queued. */
    private void beforeOutput() {
        if (receipts != null && run.receiptsBeforeOutput != null) {
            receipts.beforeOutput(run);
        }
    }

    /** The start of {@code text} that fits in {@code room} characters (see {@link TextChunker#head}); empty if none fits. */
    private static String head(String text, int room) {
        return room < 16 ? "" : TextChunker.head(text, room);
    }

    @Override
    public boolean aborted() {
        return run.silenced() || run.launch != launch;
    }
}

package dev.laneway.core.engine;

import dev.laneway.core.SessionKey;
import dev.laneway.core.agent.RunEvents;
import dev.laneway.core.agent.SteerMessage;
import dev.laneway.core.channel.TextChunker;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The events a run's agent sees: replies go to the outbox unless the run has been aborted (or has
 * moved on to a fallback agent: this start's events are then stale); the
 * outbox reports a reply it could not deliver to the run's {@link Delivery}.
 * Each delivered reply is reported to {@code onReply} with the steers it answers, so the run's
 * messages and those steers count as answered from then on. Streamed deltas and tool steps are not
 * shown by any channel yet, so they are dropped here.
 *
 * <p>A run's answer is bounded: once its replies reach {@code maxAnswerChars} characters, the reply
 * that crosses the bound is cut (at the best boundary before it, a code fence closed there), the
 * user is told that the answer was cut, and every later reply of the run is dropped.
 *
 * <p>Concurrency: agents may call in from any thread; {@code lock} guards {@code answered} and
 * {@code cut} only: the outbox is called with it released (an agent replies from one thread at a
 * time, so its replies reach the outbox in order).
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
    private final Consumer<List<SteerMessage>> onReply;
    private final BooleanSupplier stillWanted;
    private final ReentrantLock lock = new ReentrantLock();
    private long answered; // characters of this run's answer handed to the outbox; guarded by lock
    private boolean cut;   // the answer reached its bound: nothing more is sent; guarded by lock

    GatedRunEvents(Run run, int launch, SessionKey session, Outbox outbox, int maxAnswerChars, Runnable onRetry,
            Consumer<List<SteerMessage>> onReply) {
        this.run = run;
        this.launch = launch;
        this.session = session;
        this.outbox = outbox;
        this.maxAnswerChars = maxAnswerChars;
        this.onRetry = onRetry;
        this.onReply = onReply;
        this.stillWanted = () -> !run.silenced();
    }

    @Override
    public void retrying(String reason) {
        onRetry.run();
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
        List<SteerMessage> steers = answeredSteers == null ? List.of() : answeredSteers;
        String head; // null: the whole text goes; else the part that fits ("" once the answer was cut)
        boolean crossed = false;
        lock.lock();
        try {
            long room = maxAnswerChars - answered;
            if (cut) {
                head = "";
            } else if (text.length() <= room) {
                answered += text.length();
                head = null;
            } else {
                cut = true;
                crossed = true;
                head = head(text, (int) room);
                answered += head.length();
            }
        } finally {
            lock.unlock();
        }
        if (head == null) {
            outbox.answer(run.route, session, text, stillWanted, run.delivery);
        } else if (crossed) {
            log.warn("run {} of session {}: the answer is longer than {} characters (messages.maxAnswerChars); the"
                    + " rest is cut", run.id, session, maxAnswerChars);
            outbox.answer(run.route, session, head, stillWanted, run.delivery);
            outbox.answer(run.route, session, Notices.answerCut(maxAnswerChars), stillWanted, run.delivery);
        }
        // a cut or dropped reply still answers its steers: the model saw them and the user is told the
        // answer was cut, so running them again would answer twice
        onReply.accept(steers);
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

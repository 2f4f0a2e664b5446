package dev.laneway.channels.discord;

import dev.laneway.channels.discord.PendingInteractions.State;
import dev.laneway.core.time.Scheduler;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes sure a deferred slash command never stays on Discord's "thinking…" until its token dies.
 * The gateway answers commands at once, but some paths end with no answer at all (the gateway's
 * access policy or dedupe drops the message, the gateway throws, an unexpected disposition, the
 * answer is refused by Discord, the channel stops first). Each deferred interaction gets a deadline
 * ({@link #ANSWER_DEADLINE}, well inside the token's 15 minutes); if it is still
 * {@link State#AWAITING} then, its deferred reply is edited into a short notice. A late answer
 * still goes through the interaction as a follow-up, so nothing is lost.
 *
 * <p>Concurrency: no state of its own. Scheduler tasks, JDA's event thread and the outbox's threads
 * may all call in; which of "answered" and "finished" wins is decided by
 * {@link PendingInteractions}' lock, so each interaction gets at most one notice. Sending the
 * notice is asynchronous: no method here blocks (the scheduler thread must not).
 *
 * @param <H> the handle to answer through (JDA's {@code InteractionHook} in production)
 */
final class InteractionFinisher<H> {

    /** Commands are answered at once; this is long enough for a slow, rate-limited outbox. */
    static final Duration ANSWER_DEADLINE = Duration.ofMinutes(2);

    private static final Logger log = LoggerFactory.getLogger(InteractionFinisher.class);

    private final PendingInteractions<H> interactions;
    private final Scheduler scheduler;
    private final Duration deadline;
    private final BiFunction<H, String, CompletableFuture<?>> finish;

    /**
     * @param finish replaces the deferred reply of a handle with a notice, asynchronously; the
     *               future completes when it was sent (failures are the callee's to log)
     */
    InteractionFinisher(PendingInteractions<H> interactions, Scheduler scheduler, Duration deadline,
                        BiFunction<H, String, CompletableFuture<?>> finish) {
        if (deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("answer deadline must be positive, got " + deadline);
        }
        this.interactions = interactions;
        this.scheduler = scheduler;
        this.deadline = deadline;
        this.finish = finish;
    }

    /** Starts the clock on a freshly deferred interaction. */
    void watch(String interactionId) {
        scheduler.schedule(deadline, () -> finishIfAwaiting(interactionId, SlashNotices.NO_ANSWER));
    }

    /** Closes an interaction that has had no answer yet with {@code notice}; true if this call did it. */
    boolean finishIfAwaiting(String interactionId, String notice) {
        return finishFrom(interactionId, State.AWAITING, notice);
    }

    /**
     * The first answer through an interaction was refused: nothing else will be sent for it (the
     * outbox does not try a refused reply again), so close it with {@code notice} now rather than
     * leave it "thinking".
     */
    boolean firstAnswerFailed(String interactionId, String notice) {
        return finishFrom(interactionId, State.ANSWERED, notice);
    }

    /**
     * The channel is stopping: every interaction still waiting gets {@code notice}. The future
     * completes once all of them were sent (or failed), so the caller can wait before shutting
     * the client down.
     */
    CompletableFuture<Integer> finishAllAwaiting(String notice) {
        List<PendingInteractions.Pending<H>> awaiting = interactions.finishAllAwaiting();
        CompletableFuture<?>[] sent = awaiting.stream().map(pending -> send(pending.handle(), notice))
                .toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(sent).handle((ignored, failure) -> awaiting.size());
    }

    private boolean finishFrom(String interactionId, State from, String notice) {
        Optional<PendingInteractions.Pending<H>> finished = interactions.transition(interactionId, from, State.FINISHED);
        finished.ifPresent(pending -> {
            log.warn("discord: closing slash command interaction {} with a notice: {}",
                    interactionId, notice);
            send(pending.handle(), notice);
        });
        return finished.isPresent();
    }

    private CompletableFuture<?> send(H handle, String notice) {
        try {
            return finish.apply(handle, notice);
        } catch (RuntimeException e) {
            log.warn("discord: could not close a slash command interaction with a notice: {}", e.toString());
            return CompletableFuture.failedFuture(e);
        }
    }
}

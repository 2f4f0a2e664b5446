package dev.laneway.core.engine;

import dev.laneway.core.Disposition;
import dev.laneway.core.Route;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.lane.LanePermit;
import dev.laneway.core.time.Scheduler.Cancellable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * One agent run of a session, from the moment it is admitted to its session until it ends: the
 * {@link Turn} it answers and where it is in its life.
 * Mutable fields are guarded by the owning {@link SessionQueue}'s lock, except the two volatile
 * flags, which the run's event gate reads from the agent's threads.
 */
final class Run {

    /** Where a run is in its life. */
    enum State {
        /** Waiting for its session lane, then the main lane. */
        WAITING,
        /** Holds both permits; the agent is being started. */
        STARTING,
        /** The agent is running. */
        RUNNING,
        /** A retryable failure: waiting for the backoff before trying again. */
        RETRY_WAIT,
        /** Over: its messages are settled, its permits given back. */
        ENDED
    }

    /** Why a run was aborted; {@code DEADLINE}: it ran longer than its agent's run timeout. */
    enum AbortCause { INTERRUPT, STOP, SHUTDOWN, DEADLINE }

    final String id;
    final List<QueuedItem> items;
    final String prompt;
    final Route route;
    final Disposition disposition;
    final boolean group;
    final String senderId;
    /** The run's conversation and its sender's authority: only a message of the same may steer it. */
    final Audience audience;
    final String mode;
    final Instant createdAt;

    State state = State.WAITING;
    int attempt = 1;
    AgentRun agentRun;
    String agentName = "agent";
    CompletableFuture<LanePermit> laneWait;
    final List<LanePermit> permits = new ArrayList<>(2);
    AbortCause abortCause;
    Cancellable retryTimer = Cancellable.NONE;
    // ends the current attempt when its agent's run timeout has passed since it started
    Cancellable deadlineTimer = Cancellable.NONE;
    Instant startedAt;
    // steers the agent accepted, in arrival order, with whether each is also kept as a followup
    final List<Steered> steered = new ArrayList<>();
    // ids of steers a delivered reply of this run answered (they end as steered, whatever the outcome)
    final Set<Long> answeredSteers = new HashSet<>();
    // the run's own messages were recorded answered by a reply while it went on
    boolean itemsAnswered;
    // sender keys already told that this run's interruption skipped their message (once per sender)
    final Set<String> toldInterrupted = new HashSet<>();

    /** Set once the run is aborted: its events are ignored from then on. */
    volatile boolean aborted;
    /** Set once the run delivered any reply: such a run is never retried. */
    volatile boolean delivered;
    /** Whether the outbox got every reply of the run out; its answered messages stay pending if not. */
    final Delivery delivery = new Delivery();

    Run(String id, Turn turn, Instant createdAt) {
        this.id = id;
        this.items = turn.items();
        this.prompt = turn.prompt();
        this.route = turn.route();
        this.disposition = turn.disposition();
        QueuedItem lead = turn.lead();
        this.group = !lead.last().direct();
        this.senderId = lead.last().senderId();
        this.audience = lead.audience();
        this.mode = items.isEmpty() ? "overflow" : lead.settings().mode().id();
        this.createdAt = createdAt;
    }

    /** The queue mode the run's messages arrived with (the last message's, for a batch). */
    String mode() {
        return mode;
    }

    /**
     * Gives the permits back (through {@code fx}, once the lock is released) in reverse order of
     * acquisition: {@code main}, then the session lane. Called with the session lock held.
     */
    void releasePermits(Effects fx) {
        for (int i = permits.size() - 1; i >= 0; i--) {
            fx.add(permits.get(i)::close);
        }
        permits.clear();
    }

    /** The messages of the run's own turn (not its steers), oldest first. */
    List<Ticket> tickets() {
        List<Ticket> tickets = new ArrayList<>();
        items.forEach(item -> tickets.addAll(item.tickets()));
        return tickets;
    }

    int messageCount() {
        return items.stream().mapToInt(item -> item.tickets().size()).sum();
    }

    /** A steer the agent accepted; {@code backlog} when the same item also waits as a followup. */
    record Steered(QueuedItem item, boolean backlog) {
    }
}

package dev.laneway.core.agent;

import dev.laneway.core.Route;
import dev.laneway.core.SessionKey;
import dev.laneway.core.scheduling.Claim;
import dev.laneway.core.scheduling.PriorityClass;
import java.util.List;
import java.util.Objects;

/**
 * One turn for an agent.
 *
 * @param runId    unique id of the run, for logs
 * @param session  the session the turn belongs to (its history key)
 * @param prompt   the user text of the turn (a collected batch is already formatted)
 * @param route    where the replies go
 * @param group    true in a group session
 * @param senderId the sender whose message started the turn (the last one of a batch)
 * @param attempt  1 for the first try, 2 and up for retries of a failed turn
 * @param claim    the run's class and tenant (docs/behaviour.md §11): an agent that waits for shared
 *                 capacity (a provider pool) waits in that order too
 * @param files    the attachments of the turn's messages, one entry per message that has any, in the
 *                 order of their markers in {@code prompt} (docs/behaviour.md §15.2)
 */
public record RunRequest(String runId, SessionKey session, String prompt, Route route, boolean group,
                         String senderId, int attempt, Claim claim, List<MessageFiles> files) {

    public RunRequest {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(prompt, "prompt");
        Objects.requireNonNull(route, "route");
        Objects.requireNonNull(claim, "claim");
        files = files == null ? List.of() : List.copyOf(files);
    }

    /** A turn without attachments. */
    public RunRequest(String runId, SessionKey session, String prompt, Route route, boolean group, String senderId,
                      int attempt, Claim claim) {
        this(runId, session, prompt, route, group, senderId, attempt, claim, List.of());
    }

    /** A turn without a known class: normal, its session its own tenant (tests, tools). */
    public RunRequest(String runId, SessionKey session, String prompt, Route route, boolean group, String senderId,
                      int attempt) {
        this(runId, session, prompt, route, group, senderId, attempt,
                new Claim(PriorityClass.NORMAL, "session:" + session.value(), session.value()));
    }
}

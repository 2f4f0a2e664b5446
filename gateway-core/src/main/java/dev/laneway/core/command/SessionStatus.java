package dev.laneway.core.command;

import dev.laneway.core.scheduling.WaitEstimate;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.lane.LaneSnapshot;
import java.time.Duration;
import java.util.List;

/**
 * A session as {@code /status} shows it.
 *
 * @param settings      the effective queue settings
 * @param queueDepth    queued followup items
 * @param activeRunAge  how long the active run has been going, or null when none
 * @param lanes         the session's lane and the global lanes
 * @param waiting       where the session's run stands in line for {@code main}, or null when it does
 *                      not wait for it (docs/behaviour.md §11.4)
 * @param agent         the agent that answers a message here (docs/behaviour.md §13.1), or null when
 *                      not known
 * @param fallbacks     the agents a run of {@code agent} falls back to, in order (empty when none)
 */
public record SessionStatus(QueueSettings settings, int queueDepth, Duration activeRunAge, List<LaneSnapshot> lanes,
                            WaitEstimate waiting, String agent, List<String> fallbacks) {

    public SessionStatus {
        lanes = List.copyOf(lanes);
        fallbacks = fallbacks == null ? List.of() : List.copyOf(fallbacks);
    }

    /** A session whose answering agent is not named. */
    public SessionStatus(QueueSettings settings, int queueDepth, Duration activeRunAge, List<LaneSnapshot> lanes,
                         WaitEstimate waiting) {
        this(settings, queueDepth, activeRunAge, lanes, waiting, null, List.of());
    }

    /** A session whose run does not wait for {@code main}. */
    public SessionStatus(QueueSettings settings, int queueDepth, Duration activeRunAge, List<LaneSnapshot> lanes) {
        this(settings, queueDepth, activeRunAge, lanes, null);
    }

    /** This status, naming the agent that answers here and its fallbacks. */
    public SessionStatus withAgent(String name, List<String> fallbackAgents) {
        return new SessionStatus(settings, queueDepth, activeRunAge, lanes, waiting, name, fallbackAgents);
    }
}

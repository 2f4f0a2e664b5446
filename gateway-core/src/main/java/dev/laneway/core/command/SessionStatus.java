package dev.laneway.core.command;

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
 */
public record SessionStatus(QueueSettings settings, int queueDepth, Duration activeRunAge, List<LaneSnapshot> lanes) {

    public SessionStatus {
        lanes = List.copyOf(lanes);
    }
}

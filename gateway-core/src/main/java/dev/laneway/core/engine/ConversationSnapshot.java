package dev.laneway.core.engine;

import dev.laneway.core.QueueMode;
import dev.laneway.core.Route;
import dev.laneway.core.SessionKey;
import java.time.Instant;

/**
 * One busy session as the operator console shows it (docs/behaviour.md §18): what it is doing, how
 * many messages wait for a turn, the queue mode they wait under, and since when the oldest waits.
 *
 * @param session        the session's key
 * @param state          {@code running}, {@code interrupting}, {@code draining} or {@code debouncing}
 * @param running        whether a run is active (waiting for a lane, starting, running or retrying)
 * @param queued         messages waiting for a turn (followups, an interrupting successor, inbound buffers)
 * @param mode           the queue mode of the oldest queued message, or null when nothing is queued
 * @param oldestQueuedAt when the oldest queued message was received, or null when nothing is queued
 * @param route          where a notice to the conversation goes: the active run's, else the oldest queued
 *                       message's; null with only inbound-debounce buffers
 */
public record ConversationSnapshot(SessionKey session, String state, boolean running, int queued, QueueMode mode,
                                   Instant oldestQueuedAt, Route route) {
}

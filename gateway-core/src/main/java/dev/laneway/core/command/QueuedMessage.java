package dev.laneway.core.command;

/**
 * A message waiting in its session's queue, as {@code /queue status} lists it (docs/behaviour.md §6.9).
 *
 * @param position its place among every message waiting for a turn in the session (1 = next)
 * @param text     what the sender wrote
 */
public record QueuedMessage(int position, String text) {
}

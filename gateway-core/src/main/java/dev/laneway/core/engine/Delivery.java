package dev.laneway.core.engine;

/**
 * Whether every reply of one run reached its chat. The outbox marks it failed when it gives up on
 * one of the run's replies; the "answered" records of the run's messages, queued behind those
 * replies in the same chat, read it and leave the messages pending instead (they run again after a
 * restart).
 *
 * <p>Concurrency: one volatile flag, set by the outbox's thread, read by a later task of the same
 * chat (the queue's lock orders the two as well).
 */
final class Delivery {

    private volatile boolean failed;

    /** A reply could not be delivered after the outbox's retries. */
    void failed() {
        failed = true;
    }

    /** Whether one of the run's replies could not be delivered. */
    boolean hasFailed() {
        return failed;
    }
}

package dev.laneway.core;

/**
 * How an inbound message ended. Every accepted inbound message ends in exactly one of these
 * (docs/behaviour.md §8.6), recorded once.
 */
public enum Disposition {
    /** Ran as (part of) its own turn: it started a run, or drained as a followup turn. */
    RAN,
    /** Coalesced with other queued messages into one collect turn. */
    COLLECTED,
    /** Injected into an active run, and the model saw it. */
    STEERED,
    /** Dropped from a full queue by {@code drop: old}. */
    DROPPED_OLD,
    /** Dropped from a full queue by {@code drop: summarize}; a summary line was kept. */
    SUMMARIZED,
    /** Refused by a full queue under {@code drop: new}. */
    REJECTED_NEW,
    /** Refused by the global admission cap. */
    REJECTED_BUSY,
    /** Discarded from the queue because a newer message interrupted the conversation. */
    INTERRUPTED,
    /** Discarded from the queue by {@code /stop}. */
    STOPPED,
    /** A redelivery of a message already accepted within the dedupe window. */
    DUPLICATE,
    /** Still queued at a restart but older than {@code messages.queue.ttl}: not run. */
    EXPIRED,
    /** From a sender the channel's access policy does not allow. */
    DENIED,
    /** A chat command (/queue, /status, /stop, /new) answered by the gateway; no agent run. */
    COMMAND
}

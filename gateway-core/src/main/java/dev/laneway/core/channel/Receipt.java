package dev.laneway.core.channel;

/**
 * What the gateway has decided about one inbound message, shown on that message until its answer
 * arrives (docs/behaviour.md §16.5): a receipt. A channel with {@link ReceiptMode#REACTIONS} shows
 * it as the reaction {@link #emoji()}; each emoji is in Telegram's allowed reaction set (the Bot
 * API's {@code ReactionTypeEmoji}), so one table serves every platform.
 */
public enum Receipt {
    /** Waiting for its turn: behind the conversation's running answer, or for a slot of {@code main}. */
    QUEUED("👀"),
    /** Joins the collect batch of messages queued before it: they are answered together. */
    MERGED("🤝"),
    /** Passed to the answer being written (steered into the running run). */
    STEERED("⚡"),
    /** Its answer is being written. */
    RUNNING("✍"),
    /** Dropped or refused by a full queue, discarded by an interrupt or {@code /stop}, or expired. */
    DROPPED("🙈"),
    /** Turned away: the gateway is busy (admission, or the scheduler shed it). */
    SHED("🤷");

    private final String emoji;

    Receipt(String emoji) {
        this.emoji = emoji;
    }

    /** The emoji shown as a reaction (one of Telegram's allowed reaction emoji). */
    public String emoji() {
        return emoji;
    }

    /** Whether the receipt is final: no answer follows, so nothing removes it. */
    public boolean isFinal() {
        return this == DROPPED || this == SHED;
    }
}

package dev.laneway.core.engine;

/** Every user-visible text the engine sends, byte-for-byte as docs/behaviour.md §10.1 lists them. */
final class Notices {

    static final String INTERRUPTED = "⚠️ Skipped: a newer message interrupted this conversation.";
    static final String STILL_SHUTTING_DOWN = "⚠️ Previous run is still shutting down. Please try again in a moment.";
    static final String EMPTY_ANSWER = "⚠️ The agent returned an empty answer.";

    private Notices() {
    }

    static String expired(java.time.Duration ttl) {
        return "⚠️ Skipped: this message waited longer than " + human(ttl)
                + " while the gateway was down. Please resend it if it still matters.";
    }

    private static String human(java.time.Duration d) {
        if (d.toHours() > 0 && d.toMinutesPart() == 0 && d.toSecondsPart() == 0) {
            return d.toHours() + " h";
        }
        if (d.toMinutes() > 0 && d.toSecondsPart() == 0) {
            return d.toMinutes() + " min";
        }
        return Math.max(1, d.toSeconds()) + " s";
    }

    /** A receipt in {@code receipts: notices} (docs/behaviour.md §16.5): the message joined a collect batch. */
    static final String RECEIPT_MERGED = "🤝 Added to the messages waiting; they are answered together.";
    /** A receipt in {@code receipts: notices}: the message was steered into the answer being written. */
    static final String RECEIPT_STEERED = "⚡ Passed to the answer being written.";

    /**
     * A receipt in {@code receipts: notices}: the message waits, {@code #position} in line; with the
     * estimated wait when it is long ({@code seconds} > 0).
     */
    static String receiptQueued(int position, long seconds) {
        return seconds > 0 ? "👀 Queued: #" + position + " in line, about " + seconds + " s."
                : "👀 Queued: #" + position + " in line.";
    }

    static String answerCut(int maxChars) {
        return "✂️ The answer was longer than " + maxChars + " characters; the rest was cut.";
    }

    /** The short reason of a run that passed its agent's run timeout: {@code timed out after 5 min}. */
    static String timedOut(java.time.Duration runTimeout) {
        return "timed out after " + human(runTimeout);
    }

    static String failure(String shortReason) {
        return "⚠️ Sorry, something went wrong while answering. (" + shortReason + ")";
    }

    static String summarized(int cap, int count) {
        return "⚠️ Queue full (cap " + cap + "): " + count + " older message(s) were summarized.";
    }

    static String dropped(int cap, int count) {
        return "⚠️ Queue full (cap " + cap + "): " + count + " older message(s) were dropped.";
    }

    static String rejected(int cap) {
        return "⚠️ Queue full (cap " + cap + "): this message was not queued. Please resend later.";
    }

    static String busy(long seconds) {
        return "⏳ Busy right now. Please try again in " + seconds + " s.";
    }

    /** A deferred message (docs/behaviour.md §11.3): queued, and its sender told where they stand. */
    static String deferred(int position, long seconds) {
        return "⏳ Busy right now: you are #" + position + " in line, about " + seconds + " s.";
    }

    /**
     * A fallback agent answered (docs/behaviour.md §13.4), when the run's bound agent has
     * {@code fallbackNotice} on: {@code ℹ️ Answered by <agent> (the main model is busy).} after a
     * degrade, {@code … (the main model is unavailable).} otherwise.
     */
    static String fallbackAnswered(String agent, FallbackReason reason) {
        return "ℹ️ Answered by " + agent + " (the main model is "
                + (reason == FallbackReason.DEGRADE ? "busy" : "unavailable") + ").";
    }
}

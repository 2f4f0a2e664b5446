package dev.laneway.core.engine;

/** Every user-visible text the engine sends, byte-for-byte as queue-semantics.md gives them. */
final class Notices {

    static final String INTERRUPTED = "⚠️ Skipped: a newer message interrupted this conversation.";
    static final String STILL_SHUTTING_DOWN = "⚠️ Previous run is still shutting down. Please try again in a moment.";

    private Notices() {
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
}

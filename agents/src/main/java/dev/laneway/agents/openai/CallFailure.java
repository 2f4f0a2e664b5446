package dev.laneway.agents.openai;

/**
 * Why a model call ended without an answer. An expected, typed outcome: no stack trace. A
 * {@link Kind#FAILED} failure that is {@code retryable} is one of the endpoint's (a timeout, a refused
 * or broken connection, a stream cut short): {@link ChatClient} retries it like a 5xx.
 */
final class CallFailure extends Exception {

    enum Kind {
        /** The call failed; {@link #reason()} is short enough for the user. */
        FAILED,
        /** The provider refused the credentials (401/403). */
        REJECTED,
        /** The run was aborted while the call was in flight. */
        ABORTED,
        /**
         * The provider could not serve the call: its pool's circuit is open, or it kept failing (5xx,
         * timeouts, broken connections) through every retry (docs/behaviour.md §14.4).
         */
        UNAVAILABLE
    }

    private final Kind kind;
    private final String reason;
    private final boolean retryable;

    private CallFailure(Kind kind, String reason, boolean retryable) {
        super(kind + ": " + reason, null, false, false);
        this.kind = kind;
        this.reason = reason;
        this.retryable = retryable;
    }

    static CallFailure failed(String reason, boolean retryable) {
        return new CallFailure(Kind.FAILED, reason, retryable);
    }

    static CallFailure malformed() {
        return failed("malformed response", false);
    }

    static CallFailure rejected(String reason) {
        return new CallFailure(Kind.REJECTED, reason, false);
    }

    static CallFailure unavailable(String reason) {
        return new CallFailure(Kind.UNAVAILABLE, reason, false);
    }

    static CallFailure aborted() {
        return new CallFailure(Kind.ABORTED, "aborted", false);
    }

    Kind kind() {
        return kind;
    }

    String reason() {
        return reason;
    }

    boolean retryable() {
        return retryable;
    }
}

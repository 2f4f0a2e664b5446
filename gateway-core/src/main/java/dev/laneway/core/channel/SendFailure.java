package dev.laneway.core.channel;

import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeoutException;

/**
 * Why a channel could not send (or show typing), in the terms the gateway's outbox acts on: wait
 * and try again ({@link Kind#RATE_LIMITED}, {@link Kind#UNAVAILABLE}), do not send again because
 * the message may have arrived ({@link Kind#OUTCOME_UNKNOWN}), or give up ({@link Kind#REFUSED}).
 * A channel throws it from {@link ChannelAdapter#send} and {@link ChannelAdapter#typing} with a
 * detail that is already {@link Redactor redacted}; it carries no cause, so nothing the platform
 * said reaches a log unredacted. The outbox reads any other exception through {@link #of}.
 */
public final class SendFailure extends Exception {

    /** What the outbox does about a failure. */
    public enum Kind {
        /** HTTP 429: nothing more goes to that chat until {@link #retryAfter} has passed, then the same message is tried again. */
        RATE_LIMITED,
        /**
         * The platform could not take it now: a 5xx, a reply that could not be read, or a request
         * that never left (refused connection, unknown host). Tried again with backoff.
         */
        UNAVAILABLE,
        /** No answer in time: the platform may well have delivered it, so it is not sent again. */
        OUTCOME_UNKNOWN,
        /** Refused for good (a 4xx, a chat the bot cannot write to): trying again would fail the same way. */
        REFUSED
    }

    private final Kind kind;
    private final Duration retryAfter;

    private SendFailure(Kind kind, Duration retryAfter, String detail) {
        super(kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + ": " + detail, null, false, false);
        this.kind = kind;
        this.retryAfter = retryAfter;
    }

    /** A 429; {@code retryAfter} goes through {@link RetryAfter#clamp}. */
    public static SendFailure rateLimited(Duration retryAfter, String detail) {
        return new SendFailure(Kind.RATE_LIMITED, RetryAfter.clamp(retryAfter), detail);
    }

    /** A 5xx or an unreadable reply; tried again after the outbox's own backoff. */
    public static SendFailure unavailable(String detail) {
        return new SendFailure(Kind.UNAVAILABLE, null, detail);
    }

    /** A 5xx that named its own wait ({@code Retry-After} on a 503); clamped like a 429's. */
    public static SendFailure unavailable(Duration retryAfter, String detail) {
        return new SendFailure(Kind.UNAVAILABLE, RetryAfter.clamp(retryAfter), detail);
    }

    public static SendFailure outcomeUnknown(String detail) {
        return new SendFailure(Kind.OUTCOME_UNKNOWN, null, detail);
    }

    public static SendFailure refused(String detail) {
        return new SendFailure(Kind.REFUSED, null, detail);
    }

    /**
     * Any failure as a {@link SendFailure}, from what the exception chain shows about the transport:
     * a request that never left is {@link Kind#UNAVAILABLE}, one that got no answer in time
     * {@link Kind#OUTCOME_UNKNOWN}, anything else {@link Kind#REFUSED}. A {@code SendFailure} is
     * returned as it is. The detail is {@code redactor}'s description of the failure.
     */
    public static SendFailure of(Throwable failure, Redactor redactor) {
        Objects.requireNonNull(failure, "failure");
        if (failure instanceof SendFailure known) {
            return known;
        }
        String detail = redactor.describe(failure);
        if (neverSent(failure)) {
            return unavailable(detail);
        }
        return timedOut(failure) ? outcomeUnknown(detail) : refused(detail);
    }

    /** True when the request could not even be delivered (refused connection, unknown host, no route). */
    public static boolean neverSent(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConnectException || t instanceof UnknownHostException || t instanceof NoRouteToHostException) {
                return true;
            }
        }
        return false;
    }

    /** True when a request got no answer in time (a read timeout, an SDK's own deadline). */
    public static boolean timedOut(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            // SocketTimeoutException is one; OkHttp's call timeout and an interrupted call are others
            if (t instanceof InterruptedIOException || t instanceof TimeoutException) {
                return true;
            }
        }
        return false;
    }

    public Kind kind() {
        return kind;
    }

    /** The wait the platform asked for, clamped; null when it named none (the outbox then backs off on its own). */
    public Duration retryAfter() {
        return retryAfter;
    }

    /** Whether the outbox tries the same message again. */
    public boolean retryable() {
        return kind == Kind.RATE_LIMITED || kind == Kind.UNAVAILABLE;
    }
}

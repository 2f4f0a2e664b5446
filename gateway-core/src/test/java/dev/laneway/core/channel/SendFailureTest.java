package dev.laneway.core.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class SendFailureTest {

    private final Redactor redactor = Redactor.of("t0ken");

    @Test
    void aRequestThatNeverLeft_isRetried() {
        SendFailure failure = SendFailure.of(new IOException("Unable to execute", new ConnectException("refused")), redactor);
        assertEquals(SendFailure.Kind.UNAVAILABLE, failure.kind());
        assertTrue(failure.retryable());
        assertNull(failure.retryAfter(), "the outbox backs off on its own");
    }

    @Test
    void noAnswerInTime_mayHaveBeenDelivered() {
        assertEquals(SendFailure.Kind.OUTCOME_UNKNOWN,
                SendFailure.of(new IOException("x", new SocketTimeoutException("timeout")), redactor).kind());
        assertEquals(SendFailure.Kind.OUTCOME_UNKNOWN,
                SendFailure.of(new RuntimeException(new TimeoutException()), redactor).kind());
        assertFalse(SendFailure.outcomeUnknown("x").retryable());
    }

    @Test
    void anythingElse_isRefused_withARedactedDetail_andNoCause() {
        SendFailure failure = SendFailure.of(new IllegalStateException("token t0ken was revoked"), redactor);
        assertEquals(SendFailure.Kind.REFUSED, failure.kind());
        assertFalse(failure.getMessage().contains("t0ken"), failure.getMessage());
        assertNull(failure.getCause());
        assertSame(failure, SendFailure.of(failure, redactor));
    }

    @Test
    void aRateLimit_isClamped() {
        assertEquals(RetryAfter.MAX, SendFailure.rateLimited(Duration.ofDays(1), "429").retryAfter());
        assertEquals(RetryAfter.DEFAULT, SendFailure.rateLimited(null, "429").retryAfter());
    }
}

package dev.laneway.core.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class RedactorTest {

    @Test
    void everySecretIsMasked_theLongestFirst() {
        Redactor redactor = Redactor.of("424242:fake-secret", "fake-secret", null, "");
        assertEquals("bad token *** in /bot***/sendMessage; also ***",
                redactor.redact("bad token 424242:fake-secret in /bot424242:fake-secret/sendMessage; also fake-secret"));
        assertNull(redactor.redact(null));
        assertEquals("nothing secret", Redactor.NONE.redact("nothing secret"));
    }

    @Test
    void describe_namesTheRootCause_redacted() {
        Redactor redactor = Redactor.of("xoxb-1");
        String line = redactor.describe(new IllegalStateException("call failed",
                new IOException("server said: invalid token xoxb-1")));
        assertEquals("java.lang.IllegalStateException: call failed (cause: java.io.IOException: server said: invalid"
                + " token ***)", line);
        assertFalse(line.contains("xoxb-1"));
    }
}

package dev.laneway.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import org.junit.jupiter.api.Test;

/** What doctor and init say about a request that could not be made (docs/configuration.md §18.2). */
class LiveCheckTest {

    @Test
    void aRefusedConnection_isSaidInWords_whateverTheClientWrappedItIn() {
        ConnectException refused = new ConnectException();
        refused.initCause(new ClosedChannelException());
        assertEquals("connection refused", LiveCheck.reason(new IOException("wrapped", refused)));
        assertEquals("unknown host", LiveCheck.reason(new IOException(new UnknownHostException("x.invalid"))));
        assertEquals("handshake failed", LiveCheck.reason(new IOException("outer", new IOException("handshake failed"))));
    }

    @Test
    void aSecretIsMasked_wherever_itAppears() {
        assertEquals("bad *** and *** again", LiveCheck.mask("bad tok and tok again", "tok"));
        assertEquals("nothing", LiveCheck.mask("nothing", ""));
        assertEquals("", LiveCheck.mask(null, "tok"));
    }
}

package dev.laneway.agents.openai;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A response body that reports each piece it delivers, so the exchange's idle watchdog starts
 * again. Used by the run thread only, like the stream it wraps.
 */
final class ProgressStream extends FilterInputStream {

    private final Runnable onProgress;

    ProgressStream(InputStream body, Runnable onProgress) {
        super(body);
        this.onProgress = onProgress;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            onProgress.run();
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = super.read(buffer, offset, length);
        if (n > 0) {
            onProgress.run();
        }
        return n;
    }
}

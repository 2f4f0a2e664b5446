package dev.laneway.app.ops;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.slf4j.LoggerFactory;

/**
 * Captures every log event at INFO (or a given level) and above as the JSON lines
 * {@link LogFormat#JSON} writes, while attached to the root logger. With a level, the root logger
 * (every library) is lowered to it too. Close to detach and restore the levels.
 */
public final class LogCapture implements AutoCloseable {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final OutputStreamAppender<ILoggingEvent> appender = new OutputStreamAppender<>();
    private final Logger root;
    private final Logger laneway;
    private final Level lanewayLevel;
    private final Level rootLevel;

    LogCapture() {
        this(null);
    }

    /** @param everything the level for the root logger and {@code dev.laneway}; null: INFO for {@code dev.laneway} only */
    public LogCapture(Level everything) {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        appender.setContext(context);
        appender.setName("capture");
        appender.setEncoder(LogFormat.jsonEncoder(context));
        appender.setOutputStream(bytes);
        appender.start();
        root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        laneway = context.getLogger("dev.laneway");
        lanewayLevel = laneway.getLevel();
        rootLevel = root.getLevel();
        laneway.setLevel(everything == null ? Level.INFO : everything);
        if (everything != null) {
            root.setLevel(everything);
        }
        root.addAppender(appender);
    }

    /** Everything written so far. */
    public String text() {
        synchronized (bytes) {
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }

    @Override
    public void close() {
        root.detachAppender(appender);
        appender.stop();
        laneway.setLevel(lanewayLevel);
        root.setLevel(rootLevel);
    }
}

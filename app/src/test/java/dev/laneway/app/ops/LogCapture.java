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
 * Captures every log event at INFO and above as the JSON lines {@link LogFormat#JSON} writes,
 * while attached to the root logger. Close to detach and restore the {@code dev.laneway} level.
 */
final class LogCapture implements AutoCloseable {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final OutputStreamAppender<ILoggingEvent> appender = new OutputStreamAppender<>();
    private final Logger root;
    private final Logger laneway;
    private final Level lanewayLevel;

    LogCapture() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        appender.setContext(context);
        appender.setName("capture");
        appender.setEncoder(LogFormat.jsonEncoder(context));
        appender.setOutputStream(bytes);
        appender.start();
        root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        laneway = context.getLogger("dev.laneway");
        lanewayLevel = laneway.getLevel();
        laneway.setLevel(Level.INFO);
        root.addAppender(appender);
    }

    /** Everything written so far. */
    String text() {
        synchronized (bytes) {
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }

    @Override
    public void close() {
        root.detachAppender(appender);
        appender.stop();
        laneway.setLevel(lanewayLevel);
    }
}

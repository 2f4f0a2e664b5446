package dev.laneway.core.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.AppenderBase;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.LoggerFactory;

/**
 * Records what is logged through one logger (and its children) while open; events may come from
 * any thread. Tests use it to check a log line is written, and that none gives a secret away.
 * Needs logback-classic on the test classpath (the modules that use it have it in test scope).
 */
public final class LogCapture implements AutoCloseable {

    /** One recorded line: its level, its message with arguments filled in, its exception chain's text. */
    public record Line(Level level, String message, String thrown) {
        public boolean mentions(String text) {
            return message.contains(text) || (thrown != null && thrown.contains(text));
        }
    }

    private final Logger logger;
    private final List<Line> lines = new CopyOnWriteArrayList<>();
    private final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
        @Override
        protected void append(ILoggingEvent event) {
            StringBuilder thrown = new StringBuilder();
            for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
                thrown.append(t.getClassName()).append(": ").append(t.getMessage()).append('\n');
            }
            lines.add(new Line(event.getLevel(), event.getFormattedMessage(), thrown.isEmpty() ? null : thrown.toString()));
        }
    };

    private LogCapture(String name) {
        this.logger = (Logger) LoggerFactory.getLogger(name);
        appender.setContext(logger.getLoggerContext());
        appender.start();
        logger.addAppender(appender);
    }

    /** Everything logged by {@code type}'s logger. */
    public static LogCapture of(Class<?> type) {
        return new LogCapture(type.getName());
    }

    /** Everything logged by the logger {@code name} and its children (a package, say). */
    public static LogCapture of(String name) {
        return new LogCapture(name);
    }

    /** Everything logged anywhere (the root logger; loggers that do not add to it excepted). */
    public static LogCapture all() {
        return new LogCapture(org.slf4j.Logger.ROOT_LOGGER_NAME);
    }

    public List<Line> lines() {
        return List.copyOf(lines);
    }

    /** The messages logged at {@code level}, in order. */
    public List<String> messages(Level level) {
        return lines.stream().filter(line -> line.level() == level).map(Line::message).toList();
    }

    public List<String> warnings() {
        return messages(Level.WARN);
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        appender.stop();
    }
}

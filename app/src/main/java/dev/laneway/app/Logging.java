package dev.laneway.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import dev.laneway.app.ops.LogFormat;
import org.slf4j.LoggerFactory;

/**
 * Log level at start-up: {@code LANEWAY_LOG_LEVEL} if set; otherwise INFO, or WARN when the console
 * is the only channel (so the chat on the terminal is not buried in log lines). Format:
 * {@code LANEWAY_LOG_FORMAT} ({@code text}, the default, or {@code json}: one object per line).
 * Logs go to stderr; stdout belongs to the console channel.
 */
final class Logging {

    private Logging() {
    }

    static void configure(boolean consoleOnly) {
        String configured = System.getenv("LANEWAY_LOG_LEVEL");
        Level level = configured != null && !configured.isBlank()
                ? Level.toLevel(configured.strip(), Level.INFO)
                : consoleOnly ? Level.WARN : Level.INFO;
        ((Logger) LoggerFactory.getLogger("dev.laneway")).setLevel(level);
        String format = System.getenv(LogFormat.ENV);
        LogFormat.parse(format).ifPresentOrElse(LogFormat::apply, () -> LoggerFactory.getLogger(Logging.class)
                .warn("{}={} is not a log format (text or json); logging as text", LogFormat.ENV, format));
    }
}

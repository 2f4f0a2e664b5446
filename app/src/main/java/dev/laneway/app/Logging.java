package dev.laneway.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.slf4j.LoggerFactory;

/**
 * Log level at start-up: {@code LANEWAY_LOG_LEVEL} if set; otherwise INFO, or WARN when the console
 * is the only channel (so the chat on the terminal is not buried in log lines). Logs go to stderr;
 * stdout belongs to the console channel.
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
    }
}

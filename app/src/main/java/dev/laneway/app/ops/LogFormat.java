package dev.laneway.app.ops;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.LoggerFactory;

/**
 * The log line format, chosen by {@code LANEWAY_LOG_FORMAT}: {@code text} (the default, the
 * pattern in {@code logback.xml}) or {@code json} (one JSON object per line, Logback's
 * {@link JsonEncoder}). Either way logs go to stderr: stdout is the console channel's chat.
 */
public enum LogFormat {
    TEXT,
    JSON;

    /** The environment variable that chooses the format. */
    public static final String ENV = "LANEWAY_LOG_FORMAT";

    /** {@code text}/{@code plain} or {@code json}, any case; unset or blank is text; empty when unknown. */
    public static Optional<LogFormat> parse(String raw) {
        if (raw == null || raw.isBlank()) {
            return Optional.of(TEXT);
        }
        return Optional.ofNullable(switch (raw.strip().toLowerCase(Locale.ROOT)) {
            case "text", "plain" -> TEXT;
            case "json" -> JSON;
            default -> null;
        });
    }

    /** Puts this format on every console appender of the root logger, pointed at stderr. */
    public void apply() {
        if (this == TEXT) {
            return;
        }
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        List<Appender<ILoggingEvent>> appenders = new ArrayList<>();
        root.iteratorForAppenders().forEachRemaining(appenders::add);
        for (Appender<ILoggingEvent> appender : appenders) {
            if (appender instanceof ConsoleAppender<ILoggingEvent> console) {
                console.stop();
                console.setTarget("System.err");
                console.setEncoder(jsonEncoder(context));
                console.start();
            }
        }
    }

    /**
     * One JSON object per event: timestamp, level, thread, logger, MDC, key-value pairs, the
     * message template, the formatted message and any throwable. Arguments are not repeated as a
     * separate array (the formatted message holds them) and the logger context is left out.
     */
    public static JsonEncoder jsonEncoder(Context context) {
        JsonEncoder encoder = new JsonEncoder();
        encoder.setContext(context);
        encoder.setWithSequenceNumber(false);
        encoder.setWithNanoseconds(false);
        encoder.setWithContext(false);
        encoder.setWithArguments(false);
        encoder.setWithFormattedMessage(true);
        encoder.start();
        return encoder;
    }
}

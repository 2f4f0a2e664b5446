package dev.laneway.app.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** {@code LANEWAY_LOG_FORMAT}: text by default, one JSON object per line with {@code json}, always on stderr. */
class LogFormatTest {

    @Test
    void theFormatIsTextUnlessJsonIsAsked_andAnUnknownValueIsNoFormat() {
        assertEquals(Optional.of(LogFormat.TEXT), LogFormat.parse(null));
        assertEquals(Optional.of(LogFormat.TEXT), LogFormat.parse(" "));
        assertEquals(Optional.of(LogFormat.TEXT), LogFormat.parse("plain"));
        assertEquals(Optional.of(LogFormat.JSON), LogFormat.parse(" JSON "));
        assertEquals(Optional.empty(), LogFormat.parse("xml"));
    }

    @Test
    void jsonLines_carryLevelLoggerAndTheFormattedMessage_oneObjectPerLine() throws Exception {
        try (LogCapture capture = new LogCapture()) {
            LoggerFactory.getLogger("dev.laneway.runs").info("run finished: session={} waitMs={}", "test:dm:alice", 250);
            String[] lines = capture.text().split("\n");
            assertEquals(1, lines.length, capture.text());
            JsonNode line = new ObjectMapper().readTree(lines[0]);
            assertEquals("INFO", line.get("level").asText());
            assertEquals("dev.laneway.runs", line.get("loggerName").asText());
            assertEquals("run finished: session=test:dm:alice waitMs=250", line.get("formattedMessage").asText());
            assertTrue(line.has("timestamp"));
            assertFalse(line.has("arguments"), "the formatted message already holds the arguments");
        }
    }

    @Test
    void json_replacesTheConsoleEncoder_andKeepsLogsOnStderr() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        ConsoleAppender<ILoggingEvent> console = (ConsoleAppender<ILoggingEvent>)
                context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDERR");
        Encoder<ILoggingEvent> original = console.getEncoder();
        try {
            LogFormat.JSON.apply();
            assertInstanceOf(JsonEncoder.class, console.getEncoder());
            assertEquals("System.err", console.getTarget());
            assertTrue(console.isStarted());
        } finally {
            console.stop();
            console.setEncoder(original);
            console.start();
        }
    }
}

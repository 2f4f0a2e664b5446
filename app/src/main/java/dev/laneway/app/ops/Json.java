package dev.laneway.app.ops;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The one JSON writer of the ops endpoints: records in, indented UTF-8 out (curl-friendly). */
final class Json {

    static final String CONTENT_TYPE = "application/json; charset=utf-8";

    // thread-safe once configured
    private static final ObjectMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private Json() {
    }

    private static final ObjectMapper COMPACT = JsonMapper.builder().build();

    /** One line, no trailing newline: a server-sent event's {@code data:} field. */
    static String line(Object value) {
        try {
            return COMPACT.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] bytes(Object value) {
        try {
            return (MAPPER.writeValueAsString(value) + "\n").getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}

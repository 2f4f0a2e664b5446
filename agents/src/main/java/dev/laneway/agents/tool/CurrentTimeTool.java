package dev.laneway.agents.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Objects;

/**
 * The built-in harmless tool {@code current_time}: the current time as ISO-8601, in UTC or in an
 * optional IANA {@code timezone}. Time comes from the injected {@link InstantSource}.
 */
public final class CurrentTimeTool implements Tool {

    public static final String NAME = "current_time";

    private static final JsonNode SCHEMA = schema();

    private final InstantSource clock;

    public CurrentTimeTool(InstantSource clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Returns the current date and time in ISO-8601 format (UTC unless a timezone is given).";
    }

    @Override
    public JsonNode parametersSchema() {
        return SCHEMA.deepCopy();
    }

    @Override
    public String call(JsonNode arguments) {
        Instant now = clock.instant();
        String zone = arguments == null ? "" : arguments.path("timezone").asText("").trim();
        if (zone.isEmpty()) {
            return now.toString();
        }
        try {
            return DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(now.atZone(ZoneId.of(zone)));
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("unknown timezone '" + zone + "'");
        }
    }

    private static JsonNode schema() {
        ObjectNode schema = new ObjectMapper().createObjectNode().put("type", "object");
        schema.putObject("properties").putObject("timezone")
                .put("type", "string")
                .put("description", "IANA time zone, e.g. Europe/Paris; UTC when omitted");
        schema.put("additionalProperties", false);
        return schema;
    }
}

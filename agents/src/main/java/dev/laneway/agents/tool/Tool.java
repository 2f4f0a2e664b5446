package dev.laneway.agents.tool;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A function the model may call. Implementations must be thread-safe (one instance serves every
 * run) and should return quickly; the run waits for {@link #call} and cannot interrupt it.
 */
public interface Tool {

    /** The function name the model uses, e.g. {@code current_time}. */
    String name();

    /** One sentence for the model: what the tool does and when to use it. */
    String description();

    /** JSON Schema of the arguments object. */
    JsonNode parametersSchema();

    /**
     * Runs the tool. A thrown exception becomes the result {@code Error: <message>}, which the
     * model sees; it never fails the run.
     */
    String call(JsonNode arguments) throws Exception;
}

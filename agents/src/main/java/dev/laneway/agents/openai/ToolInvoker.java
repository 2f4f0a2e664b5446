package dev.laneway.agents.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.laneway.agents.tool.Tool;
import dev.laneway.agents.tool.ToolRegistry;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs one tool call; every failure becomes an {@code Error: ...} result for the model. */
final class ToolInvoker {

    /** What the model gets back, and whether the tool ran cleanly. */
    record Result(String text, boolean ok) {
    }

    private static final Logger log = LoggerFactory.getLogger(ToolInvoker.class);

    private ToolInvoker() {
    }

    static Result invoke(ToolRegistry tools, ToolCall call, ObjectMapper mapper) {
        Optional<Tool> tool = tools.find(call.name());
        if (tool.isEmpty()) {
            return new Result("Error: unknown tool '" + call.name() + "'", false);
        }
        JsonNode arguments;
        try {
            arguments = mapper.readTree(call.arguments().isBlank() ? "{}" : call.arguments());
        } catch (JsonProcessingException e) {
            return new Result("Error: the arguments are not valid JSON", false);
        }
        try {
            String text = tool.get().call(arguments);
            return new Result(text == null ? "" : text, true);
        } catch (Exception e) {
            log.info("tool {} failed: {}", call.name(), e.toString());
            String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return new Result("Error: " + message, false);
        }
    }
}

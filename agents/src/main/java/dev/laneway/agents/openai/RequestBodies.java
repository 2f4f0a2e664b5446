package dev.laneway.agents.openai;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.laneway.agents.tool.Tool;
import dev.laneway.agents.tool.ToolRegistry;
import dev.laneway.core.agent.settings.OpenAiSettings;

/** Builds Chat Completions request bodies. */
final class RequestBodies {

    static final String STREAM_OPTIONS = "stream_options";

    private RequestBodies() {
    }

    /**
     * The body for one model call. With {@code toolsAllowed} false the tools are still declared
     * (the transcript refers to them) but {@code tool_choice: none} asks for a text answer.
     */
    static ObjectNode chat(ObjectMapper mapper, OpenAiSettings settings, ArrayNode messages, ToolRegistry tools,
                           boolean toolsAllowed) {
        ObjectNode body = mapper.createObjectNode();
        body.put("model", settings.model());
        body.set("messages", messages);
        if (settings.stream()) {
            body.put("stream", true);
            // the last chunk then carries usage (a pool's tpm and the token counter; docs/decisions.md D66)
            body.putObject(STREAM_OPTIONS).put("include_usage", true);
        }
        if (settings.temperature() != null) {
            body.put("temperature", settings.temperature());
        }
        if (settings.maxTokens() != null) {
            body.put("max_tokens", settings.maxTokens());
        }
        if (!tools.isEmpty()) {
            ArrayNode declared = body.putArray("tools");
            for (Tool tool : tools.all()) {
                ObjectNode function = declared.addObject().put("type", "function").putObject("function");
                function.put("name", tool.name()).put("description", tool.description());
                function.set("parameters", tool.parametersSchema());
            }
            if (!toolsAllowed) {
                body.put("tool_choice", "none");
            }
        }
        return body;
    }
}
